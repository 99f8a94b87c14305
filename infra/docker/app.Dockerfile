# syntax=docker/dockerfile:1.7
# One multi-stage recipe for every app: docker build -f infra/docker/app.Dockerfile --build-arg APP=relay-gateway .
ARG NODE_VERSION=20.20.2

FROM node:${NODE_VERSION}-bookworm-slim AS prune
ARG APP
WORKDIR /repo
COPY . .
RUN npx --yes turbo@2.11.11 prune "@fieldops/${APP}" --docker

FROM node:${NODE_VERSION}-bookworm-slim AS build
ARG APP
WORKDIR /repo
COPY --from=prune /repo/out/json/ .
RUN npm install --no-audit --no-fund
COPY --from=prune /repo/out/full/ .
COPY tsconfig.base.json ./
RUN npx turbo run build --filter="@fieldops/${APP}" && npm prune --omit=dev

FROM node:${NODE_VERSION}-bookworm-slim AS runtime
ARG APP
ENV NODE_ENV=production APP=${APP}
WORKDIR /srv
COPY --from=build --chown=node:node /repo/node_modules ./node_modules
COPY --from=build --chown=node:node /repo/libs ./libs
COPY --from=build --chown=node:node /repo/apps/${APP} ./apps/${APP}
# State an app keeps on disk (the connector's development signing key, inspection media) lives here;
# it is created owned by `node` so named volumes mounted on it inherit that owner.
RUN mkdir -p /var/lib/fieldops && chown node:node /var/lib/fieldops
USER node
# Liveness without curl: Node itself asks /healthz.
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+process.env.SERVICE_PORT+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["sh", "-c", "exec node apps/${APP}/dist/main.js"]
