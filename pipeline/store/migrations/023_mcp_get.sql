-- 023_mcp_get: what the plain GET of mcp-reach/3 shows beyond its status (docs/notes/mcp-eras.md).
--
-- checks.auth_schemes: for a 401 answer to an MCP check's GET, the auth schemes its WWW-Authenticate
-- names, lower-cased, each once, in order (e.g. ['bearer']); an empty list when the 401 names none;
-- NULL for every other answer, every other rule, and every check stored before this migration. The
-- status is checks.status already, and a paid MCP server's 402 protocols are checks.protocols
-- (migration 021). Still one row per (service_id, operation, slot).
ALTER TABLE checks ADD COLUMN auth_schemes VARCHAR[];
