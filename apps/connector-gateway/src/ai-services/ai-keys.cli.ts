import { processVariables } from '@fieldops/platform';
import { type ResourceKeys } from './ai-resource-keys.service';

const USAGE = `usage: ai-keys list <resource>
       ai-keys regenerate <resource> key1|key2
environment: CONNECTOR_URL (default http://localhost:8020), CONNECTOR_INTERNAL_KEY (required)`;

export interface AiKeysCliContext {
  environment: NodeJS.ProcessEnv;
  print(line: string): void;
  fetch?: typeof fetch;
}

/**
 * The `ai-keys` command: lists or regenerates one key of an AI resource through the gateway's internal API,
 * so the new key is in the shared key store every instance reads. Returns the exit code.
 */
export async function runAiKeysCli(args: readonly string[], context: AiKeysCliContext): Promise<number> {
  const [command, resource, keyName] = args;
  const baseUrl = (context.environment.CONNECTOR_URL ?? 'http://localhost:8020').replace(/\/+$/, '');
  const internalKey = context.environment.CONNECTOR_INTERNAL_KEY;
  const valid =
    resource !== undefined &&
    ((command === 'list' && keyName === undefined) ||
      (command === 'regenerate' && (keyName === 'key1' || keyName === 'key2')));
  if (!valid || !internalKey) {
    context.print(USAGE);
    return 2;
  }
  const path = `${baseUrl}/internal/v1/ai-resources/${encodeURIComponent(resource)}`;
  const send = context.fetch ?? globalThis.fetch.bind(globalThis);
  const response =
    command === 'list'
      ? await send(`${path}/keys`, { headers: { Authorization: `Bearer ${internalKey}` } })
      : await send(`${path}/regenerateKey`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${internalKey}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ keyName: keyName === 'key1' ? 'Key1' : 'Key2' }),
        });
  const text = await response.text();
  if (!response.ok) {
    context.print(`ai-keys: the gateway answered ${response.status}: ${text}`);
    return 1;
  }
  const keys = JSON.parse(text) as ResourceKeys;
  context.print(`key1 ${keys.key1}`);
  context.print(`key2 ${keys.key2}`);
  return 0;
}

if (require.main === module) {
  runAiKeysCli(process.argv.slice(2), {
    environment: processVariables(),
    print: (line) => process.stdout.write(`${line}\n`),
  }).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`ai-keys: ${(error as Error).message}\n`);
      process.exit(1);
    },
  );
}
