import { type IncomingMessage, type Server } from 'node:http';
import { type Duplex } from 'node:stream';
import { type BeforeApplicationShutdown, Inject, Injectable } from '@nestjs/common';
import { ACTIVITY_BUS, type ActivityBus } from '@fieldops/bus';
import { CONVERSATION_STORE, type ConversationStore } from '@fieldops/conversation-store';
import { HttpFront, LOGGER, type Logger, type UpgradeExchange } from '@fieldops/platform';
import { findBot } from '@fieldops/platform-config';
import { Gauge, Registry } from 'prom-client';
import { type WebSocket, WebSocketServer } from 'ws';
import { BotFrameworkError, notFound, serviceError } from '@fieldops/contracts';
import { RelayGatewayEnvironment } from '../config/relay-gateway.environment';
import { conversationNotFound } from '../conversations/conversations.service';
import { PLATFORM_CONFIG, type PlatformConfig } from '../direct-line/relay-settings';
import { TokenIssuer } from '../direct-line/token-issuer';
import { originRefusal } from '../direct-line/enhanced-authentication';
import { assertTokenForConversation } from '../direct-line/token-conversation';
import { streamConversationOf, streamRouteOf } from '../direct-line/v3-paths';
import { RelayExceptionFilter } from '../relay-exception.filter';
import { parseWatermark } from '../direct-line/watermark';
import { StreamConnection } from './stream-connection';

/** The upgrade of each handshake under way (`ws` names only the request in its `headers` event). */
const exchanges = new WeakMap<IncomingMessage, UpgradeExchange>();

/**
 * The close code of a draining instance's sockets: 1012 "Service Restart" (IANA WebSocket close code registry),
 * which tells a client the service is restarting and it should reconnect. DirectLineJS reconnects after any close
 * (3–15 s later, through `GET /conversations/{id}?watermark=`, landing on another instance); clients that read
 * the code take 1012 as "come back", not as a refusal.
 */
export const DRAIN_CLOSE_CODE = 1012;

/**
 * The WebSocket stream (`…/conversations/{id}/stream?watermark=&t=`), upgraded on the HTTP server with `ws` in
 * noServer mode. The `t` token is checked at connect time only; an open socket outlives it.
 */
@Injectable()
export class StreamService implements BeforeApplicationShutdown {
  private readonly server = new WebSocketServer({
    noServer: true,
    perMessageDeflate: false,
    clientTracking: false,
  });
  private readonly connections = new Map<WebSocket, StreamConnection>();
  /** Streams per conversation on this instance, admitted ones included (RELAY_MAX_STREAMS_PER_CONVERSATION). */
  private readonly streamsPerConversation = new Map<string, number>();
  private keepAlive: NodeJS.Timeout | undefined;
  private draining = false;
  readonly openStreamsGauge: Gauge;

  constructor(
    @Inject(CONVERSATION_STORE) private readonly store: ConversationStore,
    @Inject(ACTIVITY_BUS) private readonly bus: ActivityBus,
    private readonly issuer: TokenIssuer,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
    private readonly environment: RelayGatewayEnvironment,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(Registry) registry: Registry,
    private readonly front: HttpFront,
    private readonly filter: RelayExceptionFilter,
  ) {
    const connections = this.connections;
    // The 101 carries the request id, as every answer does.
    this.server.on('headers', (headers: string[], request: IncomingMessage) =>
      exchanges.get(request)?.addHandshakeHeaders(headers),
    );
    // The HorizontalPodAutoscaler's custom metric (through the Prometheus adapter): streams held by this instance.
    this.openStreamsGauge = new Gauge({
      name: 'relay_open_streams',
      help: 'WebSocket streams open on this relay instance.',
      registers: [registry],
      collect(this: Gauge) {
        this.set(connections.size);
      },
    });
  }

  /** Number of open streams on this instance. */
  get openStreams(): number {
    return this.connections.size;
  }

  attach(httpServer: Server): void {
    httpServer.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      // The request id, access line, metrics and refusals of every HTTP request (platform's HttpFront).
      const exchange = this.front.upgrade(request, socket);
      this.upgrade(exchange, socket, head).catch((error: unknown) => {
        this.logger.warn({ err: error, reqId: exchange.id }, 'stream upgrade failed');
        exchange.refuse(serviceError('Stream could not be opened'), this.filter);
      });
    });
    this.keepAlive = setInterval(() => {
      for (const socket of this.connections.keys()) if (socket.readyState === socket.OPEN) socket.send('');
    }, this.environment.RELAY_STREAM_KEEPALIVE_MS);
    this.keepAlive.unref();
  }

  /** Closes every stream of a conversation on this instance (tests; operators). */
  closeConversationStreams(conversationId: string, code = 1001): number {
    let closed = 0;
    for (const [socket, connection] of this.connections) {
      if (connection.conversationId === conversationId) {
        socket.close(code, 'closed by the server');
        closed += 1;
      }
    }
    return closed;
  }

  /**
   * Graceful drain (SIGTERM): refuse new streams (503, so the client retries elsewhere) and close every open one with
   * {@link DRAIN_CLOSE_CODE}; their clients resume from their watermark on another instance.
   */
  beforeApplicationShutdown(): void {
    this.draining = true;
    clearInterval(this.keepAlive);
    for (const socket of this.connections.keys())
      socket.close(DRAIN_CLOSE_CODE, 'server draining; reconnect');
    for (const connection of this.connections.values()) void connection.close();
    this.connections.clear();
  }

  private async upgrade(exchange: UpgradeExchange, socket: Duplex, head: Buffer): Promise<void> {
    const request = exchange.request;
    exchange.setRoute(streamRouteOf(new URL(request.url ?? '/', 'http://relay.invalid').pathname));
    let conversationId: string;
    let watermark: number | undefined;
    try {
      ({ conversationId, watermark } = await this.admit(request));
    } catch (error) {
      // Every refusal as the HTTP routes render it (the relay's exception filter: a 5xx is logged with its id).
      return exchange.refuse(error, this.filter);
    }
    // The slot admit() took is given back when the socket closes, or now if the upgrade never completes.
    let opened = false;
    socket.once('close', () => {
      if (!opened) this.releaseStream(conversationId);
    });

    exchanges.set(request, exchange);
    this.server.handleUpgrade(request, socket, head, (webSocket) => {
      opened = true;
      exchanges.delete(request);
      exchange.accepted();
      const connection = new StreamConnection(
        webSocket,
        conversationId,
        watermark,
        this.store,
        this.bus,
        this.logger,
        socket,
      );
      this.connections.set(webSocket, connection);
      webSocket.on('error', () => webSocket.terminate());
      webSocket.on('close', () => {
        this.connections.delete(webSocket);
        this.releaseStream(conversationId);
        void connection.close();
      });
      // Client frames (DirectLineJS sends "" as a keep-alive) are ignored.
      connection.open().catch((error: unknown) => {
        this.logger.warn({ err: error, conversationId }, 'stream could not subscribe; closing');
        webSocket.close(1011, 'subscription failed');
      });
    });
  }

  /** The conversation and watermark of an upgrade request, or the Direct Line error that refuses it. */
  private async admit(request: IncomingMessage): Promise<{ conversationId: string; watermark?: number }> {
    if (this.draining)
      throw new BotFrameworkError(503, 'ServiceError', 'This instance is shutting down; reconnect');
    const url = new URL(request.url ?? '/', 'http://relay.invalid');
    const conversationId = streamConversationOf(url.pathname);
    if (conversationId === undefined) throw notFound('No WebSocket endpoint here');
    const watermark = parseWatermark(url.searchParams.get('watermark') ?? undefined);
    const { claims } = this.issuer.verify(url.searchParams.get('t') ?? '');
    assertTokenForConversation(claims.scope === 'stream' ? claims.conv : undefined, conversationId);
    const record = await this.store.get(conversationId);
    if (!record || record.botId !== claims.bot) throw conversationNotFound();
    // WebSockets know no CORS: the bot's (or token's) trusted origins are checked against the upgrade's Origin, by
    // the rule DirectLineAuthGuard applies to every request.
    const bot = findBot(this.config, claims.bot);
    const refusal = bot && originRefusal(request.headers.origin, bot, claims.origins ?? []);
    if (refusal) throw refusal;
    const open = this.streamsPerConversation.get(conversationId) ?? 0;
    if (open >= this.environment.RELAY_MAX_STREAMS_PER_CONVERSATION) {
      throw new BotFrameworkError(
        429,
        'TooManyRequests',
        `This conversation already has ${open} open streams; close one first`,
      );
    }
    this.streamsPerConversation.set(conversationId, open + 1);
    return { conversationId, watermark };
  }

  private releaseStream(conversationId: string): void {
    const open = (this.streamsPerConversation.get(conversationId) ?? 1) - 1;
    if (open > 0) this.streamsPerConversation.set(conversationId, open);
    else this.streamsPerConversation.delete(conversationId);
  }
}
