# syntax=docker/dockerfile:1.7
# @fieldops/relay-gateway. Build from the repository root:
#   docker build -f infra/docker/relay-gateway.Dockerfile -t fieldops/relay-gateway .
# Stages: prune (turbo prune: only this app and the workspaces it depends on) → build (npm install on the pruned
# manifests first, so the dependency layer is cached across source changes; swc; drop dev dependencies) → runtime
# (node slim, the production node_modules and build output only, non-root user).
ARG NODE_VERSION=20.20.2

FROM node:${NODE_VERSION}-bookworm-slim AS prune
WORKDIR /repo
COPY . .
RUN npx --yes turbo@2.11.11 prune @fieldops/relay-gateway --docker

FROM node:${NODE_VERSION}-bookworm-slim AS build
WORKDIR /repo
ENV TURBO_TELEMETRY_DISABLED=1
COPY --from=prune /repo/out/json/ .
RUN npm install --no-audit --no-fund
COPY --from=prune /repo/out/full/ .
COPY tsconfig.base.json .swcrc ./
RUN npx turbo run build --filter=@fieldops/relay-gateway \
  && npm prune --omit=dev --no-audit --no-fund \
  && find apps libs -mindepth 2 -maxdepth 2 \( -name src -o -name test -o -name 'tsconfig*.json' -o -name jest.config.js \) \
    -exec rm -rf {} +

FROM node:${NODE_VERSION}-bookworm-slim AS runtime
ENV NODE_ENV=production
WORKDIR /srv
COPY --from=build --chown=node:node /repo/package.json ./
COPY --from=build --chown=node:node /repo/node_modules ./node_modules
COPY --from=build --chown=node:node /repo/libs ./libs
COPY --from=build --chown=node:node /repo/apps/relay-gateway ./apps/relay-gateway

USER node
EXPOSE 8010
# Liveness without curl: Node itself asks /healthz on the port the app listens on.
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.RELAY_GATEWAY_PORT||8010)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "apps/relay-gateway/dist/main.js"]
