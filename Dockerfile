# chainhost: the whole stack of chainrc.example.json in one container.
#   docker build -t chainhost .
#   docker run --rm -v chain-data:/data chainhost            # binds loopback inside the container
# compose.yaml runs examples/container.chainrc.json instead, which binds the container's
# interfaces so its published ports (loopback on the host by default) reach the servers.

FROM node:20-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# The `prepare` script builds; the sources are not here yet, so skip it and build below.
RUN npm ci --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY core ./core
COPY plugins ./plugins
COPY host ./host
RUN npm run build && npm prune --omit=dev --ignore-scripts

FROM node:20-slim
ENV NODE_ENV=production \
    CHAIN_HOME=/data
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY chainrc.example.json chainrc.schema.json ./
COPY examples ./examples
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
# tools, dashboard, GraphQL, node RPC, node metrics, host metrics
EXPOSE 8100 8080 5000 26657 9108 9109
STOPSIGNAL SIGTERM
CMD ["node", "dist/host/bin/chain-host.js", "--config", "chainrc.example.json"]
