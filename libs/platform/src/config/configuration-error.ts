/** Thrown at start-up when the environment or a configuration file is invalid; the message names every offending key. */
export class ConfigurationError extends Error {
  constructor(
    readonly source: string,
    readonly problems: string[],
  ) {
    super(`Invalid configuration for ${source}:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigurationError';
  }
}
