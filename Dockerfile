# abkit serve in a container: `docker build -t abkit . && docker run -p 8080:8080 abkit`
# Configuration by the environment variables of `abkit serve` (PORT, ABKIT_STORAGE, ABKIT_BOOTSTRAP…).
FROM node:20-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json tsup.config.ts ./
COPY src src
COPY adapters adapters
COPY node node
COPY server server
RUN npm run build

FROM node:20-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8080 ABKIT_STORAGE=sqlite:/data/abkit.db
WORKDIR /app
COPY package.json package-lock.json ./
# The drivers are optional peers of the library; the server image carries both.
RUN npm ci --omit=dev --no-audit --no-fund \
  && npm install --no-save --no-audit --no-fund better-sqlite3@12 pg@8 \
  && npm cache clean --force \
  && mkdir /data && chown node:node /data
COPY --from=build /app/dist dist
USER node
VOLUME /data
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/health/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
ENTRYPOINT ["node", "dist/cli.js"]
CMD ["serve"]
