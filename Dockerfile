# The portal as an image (docs/deploy.md "Containers"). NOT built on the machine this repository
# is developed on (no Docker daemon there) and not built in CI: check it before relying on it.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY . .
RUN npm ci && npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
# pg_dump and pg_restore 15 for npm run backup / restore against PostgreSQL 15.
RUN apt-get update && apt-get install -y --no-install-recommends postgresql-client-15 \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0 DATA_DIR=/data
COPY --from=build /app /app
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000
VOLUME ["/data"]
CMD ["node", "apps/server/dist/main.js"]
