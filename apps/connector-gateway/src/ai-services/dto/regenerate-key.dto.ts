/** Body of `POST /internal/v1/ai-resources/{name}/regenerateKey`, as Azure's regenerateKey operation. */
export interface RegenerateKeyCommand {
  keyName: 'Key1' | 'Key2';
}
