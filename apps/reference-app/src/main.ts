import { startApp } from './app-bootstrap.util';
import { ConfigValidationError } from './config/app.config';

/**
 * `npm start`: with nothing configured, starts the embedded sandbox, the app on SQLite
 * (./data/reference-app.sqlite), runs the demo flow, then keeps serving. Ctrl-C stops cleanly.
 */
async function main(): Promise<void> {
  try {
    await startApp({ shutdownHooks: true });
  } catch (error) {
    // A bad variable: one readable line naming it, no stack trace.
    if (error instanceof ConfigValidationError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

void main();
