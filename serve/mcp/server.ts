import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { publicBaseUrl } from '../../pipeline/core/config.ts';
import { MCP_SERVER_TITLE, MCP_SERVER_VERSION, mcpInstructions } from '../../site/discovery/index.ts';
import type { AppDeps } from '../deps.ts';
import { toolError, toolResult } from './result.ts';
import { TOOLS, type RequestInfo } from './tools.ts';

export const MCP_SERVER_NAME = 'atlas';

/**
 * A fresh MCP server for one HTTP request, with every tool bound to that request's key and address.
 * The initialize result names the server (name, title, version: the same title and version as
 * /server.json) and its instructions end with the absolute /llms.txt URL (site/discovery).
 */
export function buildMcpServer(deps: AppDeps, req: RequestInfo): McpServer {
  const server = new McpServer(
    { name: MCP_SERVER_NAME, title: MCP_SERVER_TITLE, version: MCP_SERVER_VERSION },
    { instructions: mcpInstructions(publicBaseUrl(deps.config)) },
  );
  for (const tool of TOOLS) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.input,
        outputSchema: tool.output,
        annotations: { readOnlyHint: tool.readOnly, openWorldHint: false },
      },
      async (args: unknown) => {
        try {
          const a = await tool.run(deps, (args ?? {}) as Record<string, unknown>, req);
          return toolResult(a.value, a.meta);
        } catch (e) {
          return toolError(e, deps.log, tool.name);
        }
      },
    );
  }
  return server;
}
