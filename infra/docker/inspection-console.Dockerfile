# syntax=docker/dockerfile:1.7
# @fieldops/inspection-console, the supervisor console's static files behind nginx. Build from the repository root:
#   docker build -f infra/docker/inspection-console.Dockerfile -t fieldops/inspection-console .
# Stages: prune (turbo prune: the console and the workspaces it lists) → build (npm install on the pruned manifests
# first, so the dependency layer is cached across source changes; vite build) → runtime (nginx-unprivileged: the
# built files and infra/nginx/inspection-console.conf only, non-root, port 8080). The edge proxy routes /console/ here.
ARG NODE_VERSION=20.20.2
ARG NGINX_VERSION=1.27

FROM node:${NODE_VERSION}-bookworm-slim AS prune
WORKDIR /repo
COPY . .
RUN npx --yes turbo@2.11.11 prune @fieldops/inspection-console --docker

FROM node:${NODE_VERSION}-bookworm-slim AS build
WORKDIR /repo
ENV TURBO_TELEMETRY_DISABLED=1
COPY --from=prune /repo/out/json/ .
RUN npm install --no-audit --no-fund
COPY --from=prune /repo/out/full/ .
COPY tsconfig.base.json ./
RUN npx turbo run build --filter=@fieldops/inspection-console

FROM nginxinc/nginx-unprivileged:${NGINX_VERSION}-bookworm AS runtime
COPY --from=build /repo/apps/inspection-console/dist /usr/share/nginx/html/console
COPY infra/nginx/inspection-console.conf /etc/nginx/conf.d/default.conf
USER nginx
EXPOSE 8080
# GET /healthz answers 200 (the Kubernetes probes use it; the image has no Node for a health-check command).
CMD ["nginx", "-g", "daemon off;"]
