# Production image: compiled JavaScript, production dependencies only.
FROM node:20-bookworm-slim AS build
WORKDIR /app
RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
# The dashboard calls the API through the SDK's client (web/src imports ../../sdk).
COPY sdk ./sdk
COPY web ./web
COPY scripts/build-web.mjs ./scripts/
# The dashboard bundle (esbuild, a dev dependency) is built before dev dependencies are pruned.
RUN npm run build && npm run build:web && npm prune --omit=dev

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
COPY market-data ./market-data
# The default store (STORE_URL=sqlite:./data/mis.sqlite) needs a directory the node user may write.
RUN mkdir -p /app/data && chown node:node /app/data
VOLUME /app/data
USER node
EXPOSE 8080
# Liveness only (the process answers); readiness is /v1/health/ready, for a load balancer.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/v1/health/live').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "dist/src/main.js"]
