# Multi-stage build of the shop on Node 24 LTS. Not built by CI (no container engine there);
# it runs the same commands CI tests: `npm ci`, `npm run build`, `npm run serve`.
FROM node:24-bookworm-slim AS build
WORKDIR /app
# npm ci runs the Node version guard (package.json preinstall, ADR 0150): it needs .nvmrc and itself.
COPY package.json package-lock.json .npmrc .nvmrc ./
COPY scripts/check-node.cjs scripts/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:24-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000
WORKDIR /app
COPY --from=build --chown=node:node /app/package.json ./
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
COPY --from=build --chown=node:node /app/drizzle ./drizzle
COPY --from=build --chown=node:node /app/public ./public
COPY --from=build --chown=node:node /app/content ./content
# The app's working folder (image cache, uploads): owned by the app's user, so a volume mounted on
# var/uploads (compose.yaml) starts out writable by it.
RUN mkdir -p var/uploads && chown -R node:node var
USER node
# 3000 the shop; 3100 the payment simulator service the same image runs in compose.yaml
# (`node dist/node/server/simulators.js`, ADR 0195), whose health check there replaces this one.
EXPOSE 3000 3100
HEALTHCHECK --interval=10s --timeout=3s CMD node -e "fetch('http://127.0.0.1:3000/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# The serve script sets the server's environment (ADR 0113) and execs node, which gets the signals.
CMD ["npm", "run", "serve"]
