import { type AiResourceConfig, type AiServicesConfig } from '@fieldops/platform-config';

/** Where a request was addressed: a resource's custom subdomain, a regional host, or any other host. */
export type AiAddress =
  | { kind: 'custom-subdomain'; resource: AiResourceConfig }
  | { kind: 'regional'; region: string }
  | { kind: 'generic' };

/** The configured AI resources and the host names that address them. */
export class AiResourceRegistry {
  readonly resources: readonly AiResourceConfig[];
  private readonly byName = new Map<string, AiResourceConfig>();
  private readonly bySubdomainHost = new Map<string, AiResourceConfig>();

  constructor(readonly config: AiServicesConfig) {
    this.resources = config.resources;
    for (const resource of config.resources) {
      this.byName.set(resource.name, resource);
      if (resource.customSubdomain !== undefined)
        this.bySubdomainHost.set(`${resource.customSubdomain}.${config.customSubdomainHostSuffix}`, resource);
    }
  }

  find(name: string): AiResourceConfig | undefined {
    return this.byName.get(name);
  }

  /** Classifies the host a request was sent to (lower-cased, without port). */
  addressOf(hostname: string): AiAddress {
    const host = hostname.toLowerCase().replace(/\.$/, '');
    const resource = this.bySubdomainHost.get(host);
    if (resource) return { kind: 'custom-subdomain', resource };
    const region = this.config.regionalHosts[host];
    if (region !== undefined) return { kind: 'regional', region };
    return { kind: 'generic' };
  }

  /** The URL a resource's custom subdomain answers at (for logs and documentation). */
  customSubdomainHost(resource: AiResourceConfig): string | undefined {
    return resource.customSubdomain === undefined
      ? undefined
      : `${resource.customSubdomain}.${this.config.customSubdomainHostSuffix}`;
  }
}
