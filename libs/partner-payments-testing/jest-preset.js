// Jest looks for `<preset>/jest-preset.js`: `preset: '@partner-payments/testing'`. See src/jest/jest-preset.js.
module.exports = require('./src/jest/jest-preset.js');
