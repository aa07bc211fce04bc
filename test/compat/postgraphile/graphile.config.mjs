// Upstream Xian's PostGraphile preset (xian-technology/xian-stack, docker/postgraphile/graphile.config.mjs,
// described in docs reference graphql.md §0), reproduced by configuration: the V4-compatible preset
// with upstream's options (read-only, connections only, 1 MiB bodies, no GraphiQL), pg-aggregates and
// the connection filter. The connection and schema come from the command line, as upstream's
// start script passes them (`postgraphile -C <this file> -c <url> -s public`).
import { PgAggregatesPreset } from "@graphile/pg-aggregates";
import { PostGraphileConnectionFilterPreset } from "postgraphile-plugin-connection-filter";
import { makeV4Preset } from "postgraphile/presets/v4";

/** @type {GraphileConfig.Preset} */
const preset = {
  extends: [
    makeV4Preset({
      disableDefaultMutations: true,
      simpleCollections: "omit",
      bodySizeLimit: 1048576,
      graphiql: false,
    }),
    PgAggregatesPreset,
    PostGraphileConnectionFilterPreset,
  ],
};

export default preset;
