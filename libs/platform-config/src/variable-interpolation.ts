/**
 * `${NAME}` and `${NAME:-default}` in the platform configuration's string values, as docker compose reads them:
 * a setting that follows another one (the bot's messaging endpoint follows INSPECTION_BOT_PORT) is written once.
 * `$${` stands for a literal `${`. An unset (or empty) variable without a default is a problem of its key.
 * Only string scalars are interpolated (never keys), after YAML parsing, so a value cannot inject YAML structure.
 */
const REFERENCE = /\$\$\{|\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

export function interpolateString(
  value: string,
  environment: NodeJS.ProcessEnv,
  onMissing: (name: string) => void,
): string {
  return value.replace(REFERENCE, (match, name: string | undefined, fallback: string | undefined) => {
    if (name === undefined) return '${'; // `$${`
    const given = environment[name];
    if (given !== undefined && given !== '') return given;
    if (fallback !== undefined) return fallback;
    onMissing(name);
    return match;
  });
}

/** A copy of a parsed YAML document with every string value interpolated; problems name the key path. */
export function interpolateDocument(
  document: unknown,
  environment: NodeJS.ProcessEnv,
  problems: string[],
  path = '',
): unknown {
  if (typeof document === 'string') {
    return interpolateString(document, environment, (name) =>
      problems.push(
        `${path || '(document)'}: variable ${name} is not set and has no default (\${${name}:-…})`,
      ),
    );
  }
  if (Array.isArray(document)) {
    return document.map((item, index) =>
      interpolateDocument(item, environment, problems, path ? `${path}.${index}` : String(index)),
    );
  }
  if (typeof document === 'object' && document !== null) {
    return Object.fromEntries(
      Object.entries(document).map(([key, item]) => [
        key,
        interpolateDocument(item, environment, problems, path ? `${path}.${key}` : key),
      ]),
    );
  }
  return document;
}
