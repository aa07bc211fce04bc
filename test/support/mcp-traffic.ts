import type { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/**
 * Records every JSON-RPC message sent through both ends of an in-memory MCP pair, so a test can
 * hand the whole conversation to the secret scan (the run's capture sees only stdio and HTTP).
 */
export function recordMcpTraffic(...transports: InMemoryTransport[]): string[] {
  const messages: string[] = [];
  for (const transport of transports) {
    const send = transport.send.bind(transport);
    transport.send = async (message: JSONRPCMessage, ...rest) => {
      messages.push(JSON.stringify(message));
      return send(message, ...rest);
    };
  }
  return messages;
}
