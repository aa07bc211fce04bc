/**
 * MCP progress for one tools/call (spec: basic/utilities/progress). When the request carries
 * `_meta.progressToken`, the call sends `notifications/progress`: whenever the tool reports
 * what it is doing (ctx.progress) and, while it stays silent, a heartbeat every few seconds —
 * so an SDK client using resetTimeoutOnProgress keeps waiting for a receipt or a live event
 * past its 60 s default request timeout. `progress` is the seconds elapsed (it must grow with
 * every notification); `message` is the tool's latest report.
 */

export const PROGRESS_HEARTBEAT_MS = 5_000;

export interface ProgressChannel {
  progressToken?: string | number;
  /** Sends a notification related to the call (SDK v2: `ctx.mcpReq.notify`). */
  notify(notification: { method: 'notifications/progress'; params: { progressToken: string | number; progress: number; message: string } }): Promise<void>;
}

export interface CallProgress {
  /** Passed to the ToolInvoker as the tool's ctx.progress. */
  report(message: string): void;
  stop(): void;
}

export function callProgress(channel: ProgressChannel, heartbeatMs = PROGRESS_HEARTBEAT_MS): CallProgress | null {
  const token = channel.progressToken;
  if (token === undefined) return null;
  const started = performance.now();
  let last = 0;
  let message = 'working';
  let stopped = false;
  const send = () => {
    if (stopped) return;
    // Strictly increasing, in seconds with ms resolution.
    const progress = Math.max(Math.round(performance.now() - started) / 1000, last + 0.001);
    last = progress;
    channel.notify({ method: 'notifications/progress', params: { progressToken: token, progress, message } }).catch(() => undefined);
  };
  const timer = setInterval(send, heartbeatMs);
  timer.unref();
  return {
    report(text) {
      message = text;
      send();
      timer.refresh();
    },
    stop() {
      stopped = true;
      clearInterval(timer);
    },
  };
}
