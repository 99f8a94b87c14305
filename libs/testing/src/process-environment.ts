/**
 * Sets `values` in process.env for SDKs that read their settings from it (botbuilder, @azure/identity, the Agents
 * SDK when it is loaded); the function it returns puts back what was there.
 */
export function withProcessEnvironment(values: Record<string, string>): () => void {
  const saved = Object.fromEntries(Object.keys(values).map((name) => [name, process.env[name]]));
  Object.assign(process.env, values);
  return () => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
}
