# Production image: compiled JavaScript, production dependencies only.
FROM node:20-bookworm-slim AS build
WORKDIR /app
RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
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
USER node
EXPOSE 8080
CMD ["node", "dist/src/main.js"]
