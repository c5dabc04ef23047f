import { Injectable } from '@nestjs/common';

/**
 * The app listens before its first partner call, so a slow partner never delays serving. The
 * version pin and the first authentication run in the background after listen
 * (CronJobsService.warmUp); until they have finished once, whatever their outcome, GET
 * /health/ready says `startup.state: starting` (200) and `finished` is pending.
 */
@Injectable()
export class StartupState {
  private done = false;
  private resolveFinished!: () => void;
  /** Settles (never rejects) when the start-up partner work has finished once. */
  readonly finished: Promise<void> = new Promise((resolve) => (this.resolveFinished = resolve));

  get starting(): boolean {
    return !this.done;
  }

  markFinished(): void {
    this.done = true;
    this.resolveFinished();
  }
}
