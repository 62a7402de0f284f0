import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyHelmet from '@fastify/helmet';
import fastifyWebsocket from '@fastify/websocket';
import Fastify, { type FastifyServerOptions, type RouteOptions } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config';
import type { DatabaseHandle } from './db/client';
import { accountRoutes } from './account/routes';
import { adminRoutes } from './admin/routes';
import { AdminService } from './admin/service';
import { createAuth } from './auth/auth';
import { createBus } from './bus/create-bus';
import { CallService, type CallServiceDependencies } from './calls/call-service';
import { mediaRoutes } from './media/routes';
import { WebRtcEndpoint } from './media/webrtc/webrtc-endpoint';
import { SimulatedIncomingCalls } from './calls/simulated-incoming';
import { defaultInstanceTiming, InstanceRegistry, type InstanceTiming } from './instances/instance-registry';
import { vonageProviderRoutes } from './calls/provider-routes';
import { callRoutes } from './calls/routes';
import { defaultCallTiming, type CallTiming } from './calls/timing';
import { authLinkRoutes, authRoutes } from './auth/routes';
import { resolveAuthSecret } from './auth/secret';
import { clientErrorRoutes } from './client-errors/routes';
import { contactsRoutes } from './contacts/routes';
import { Draining } from './health/draining';
import { healthRoutes } from './health/routes';
import { installErrorHandling } from './http/error-handler';
import { refuseForeignOrigins } from './http/origin-check';
import { answerClientError, answerFrameworkError, refuseLongUrls } from './http/request-limits';
import { requireSessions } from './http/require-session';
import { addResponseHeaders } from './http/response-headers';
import { MemoryRateLimiter, RedisRateLimiter } from './http/rate-limiter';
import { requestIdGenerator, returnRequestIds } from './http/request-id';
import { traceHeaders } from './http/request-log';
import { loggerOptions } from './logging/logger-options';
import { createOutboxMailer, createSmtpMailer, type Mailer } from './mail/mailer';
import { outboxRoutes } from './mail/routes';
import { BusLagProbe } from './metrics/bus-lag-probe';
import { countHttpRequests } from './metrics/http-metrics';
import { Metrics } from './metrics/metrics';
import { serveMetrics } from './metrics/serve-metrics';
import { numbersRoutes } from './numbers/routes';
import { paymentsRoutes, paystackWebhookRoutes } from './payments/routes';
import { PaymentService } from './payments/service';
import { swiftPaymentRoutes } from './payments/swift-payment-routes';
import { plansRoutes } from './plans/routes';
import { findRentedNumbers } from './numbers/service';
import { vonagePhoneRoutes } from './numbers/vonage-phone-routes';
import { preferencesRoutes } from './preferences/routes';
import { createRedisClient } from './redis/redis-client';
import { MemoryPresence } from './realtime/presence';
import { RealtimeHub } from './realtime/realtime-hub';
import { RedisPresence } from './realtime/redis-presence';
import { realtimeRoutes } from './realtime/routes';
import { SessionSockets } from './realtime/session-sockets';
import { supportRoutes } from './support/routes';
import { announceChange } from './sync/announce-change';
import { announceRouteChanges } from './sync/announce-route-changes';
import { createPaymentProvider } from './providers/payments/create-payment-provider';
import type { PaymentProvider } from './providers/payments/payment-provider';
import { sandboxCheckoutRoutes } from './providers/payments/sandbox/checkout-routes';
import { createTelephonyProvider } from './providers/telephony/create-telephony-provider';
import type { TelephonyProvider } from './providers/telephony/telephony-provider';
import { MemoryWebhookIdStore, RedisWebhookIdStore } from './providers/telephony/vonage/webhook-ids';
import { webAppInlineScriptSources } from './static-site/inline-script-hashes';
import { serveWebApp } from './static-site/serve-web-app';
import { voiceSettingsRoutes } from './voice/routes';
import { voicemailRoutes } from './voicemail/routes';
import { createVoicemail } from './voicemail/voicemail';
import { serveStoredAudio } from './storage/serve-audio';
import { AudioSpool } from './storage/audio-spool';
import { recordingsRoutes } from './recordings/recordings-routes';
import { adoptUnfinishedRecordings } from './recordings/recording-adoption';
import { EncoderProcess } from './recordings/encoder-process/encoder-process';
import { adoptFromSpool, spooledRecordings } from './recordings/recording-storage';
import { createObjectStore } from './storage/create-object-store';
import { scheduleJobs } from './jobs/scheduled-jobs';
import type { ObjectStore } from './storage/object-store';

export interface AppDependencies {
  config: Config;
  database: DatabaseHandle;
  logger?: FastifyServerOptions['logger'];
  webRoot?: string;
  mailer?: Mailer;
  /** Replaces the provider TELEPHONY names (tests inject fakes and failing providers). */
  telephony?: TelephonyProvider;
  /** Replaces the provider PAYMENTS names (tests inject failing providers). */
  paymentProvider?: PaymentProvider;
  /** Shortens the timers of docs/calls.md#timing in tests. */
  callTiming?: Partial<CallTiming>;
  instanceTiming?: Partial<InstanceTiming>;
  /** Told of every route as it is added (the security suites walk the route table with it). */
  onRoute?: (route: RouteOptions) => void;
  /** Set when shutdown begins (main.ts on SIGTERM, or this app's close): readiness turns false. */
  draining?: Draining;
  /** Replaces where call recordings are written (tests inject a failing disk). */
  recordingStorage?: CallServiceDependencies['recording'];
  /** Replaces the store STORAGE names (tests inject one in memory, or one that is away). */
  objectStore?: ObjectStore;
}

/** How often files the store did not take are offered to it again. */
const SPOOL_RETRY_MS = 30_000;

const defaultWebRoot = fileURLToPath(new URL('../../dist/web', import.meta.url));

/** Assembles the server: infrastructure first, then one plugin per domain, then the web app. */
export async function buildApp({ config, database, logger, webRoot = defaultWebRoot, mailer, telephony: givenTelephony, paymentProvider, callTiming, instanceTiming, onRoute, draining = new Draining(), recordingStorage, objectStore: givenObjectStore }: AppDependencies) {
  const app = Fastify({
    logger: logger ?? loggerOptions(config),
    bodyLimit: 1_048_576,
    // Behind a load balancer the client's address comes from X-Forwarded-For; rate limits need it.
    trustProxy: config.TRUST_PROXY,
    genReqId: requestIdGenerator(config.TRUST_PROXY),
    clientErrorHandler: answerClientError,
    // When the server closes, the drain is over and its calls were ended (preClose, below): a
    // connection still open then (a client's keep-alive, a webhook answered during the shutdown)
    // would only keep the instance from exiting.
    forceCloseConnections: true,
    frameworkErrors: answerFrameworkError,
  }).withTypeProvider<ZodTypeProvider>();
  if (onRoute) app.addHook('onRoute', onRoute);

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandling(app);
  returnRequestIds(app);
  traceHeaders(app);
  // What this instance runs with, its secrets blanked by the logger's redaction.
  app.log.debug({ config }, 'configuration');

  const secure = config.publicUrl.startsWith('https://');
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...webAppInlineScriptSources(webRoot)],
        // Radix positions popovers and sonner injects its stylesheet at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        mediaSrc: ["'self'", 'blob:'],
        connectSrc: ["'self'"],
        workerSrc: ["'self'", 'blob:'],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
        ...(secure ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    hsts: secure,
    crossOriginEmbedderPolicy: false,
  });
  // Before the websocket plugin's own preClose, which closes every socket: a shutdown ends the
  // calls first (endCallsForShutdown, set once they exist), so that their tabs hear why (call.ended)
  // and their media sockets close saying it.
  let endCallsForShutdown = async () => {};
  app.addHook('preClose', () => endCallsForShutdown());
  await app.register(fastifyWebsocket, { options: { maxPayload: 64 * 1024 } });
  // One registry per app (docs/operations.md#metrics); the services below are handed what they count.
  const metrics = new Metrics();
  countHttpRequests(app, metrics.registry);
  metrics.countWebsockets(app.websocketServer);
  refuseLongUrls(app);
  addResponseHeaders(app);
  refuseForeignOrigins(app, config);

  database.logErrorsTo(app.log);
  metrics.watchDatabase(database);
  const db = database.db;
  const mail = metrics.countMail(mailer ?? (config.SMTP_URL ? createSmtpMailer(config.SMTP_URL, config.MAIL_FROM, app.log) : createOutboxMailer(db, app.log)));
  const auth = createAuth({ config, db, mailer: mail, secret: resolveAuthSecret(config), log: app.log });
  requireSessions(app, auth);
  const redis = config.REDIS_URL ? createRedisClient(config.REDIS_URL, app.log) : null;
  // Shared by every instance when there is a Redis; otherwise this process is the only one.
  const rateLimiter = redis ? new RedisRateLimiter(redis) : new MemoryRateLimiter();
  const telephony = givenTelephony ?? (await createTelephonyProvider(config, { findRented: (numbers) => findRentedNumbers(db, numbers) }));
  const payments = new PaymentService({ db, provider: paymentProvider ?? createPaymentProvider(config, db), log: app.log, countOutcome: metrics.countPayment });
  const timing = { ...defaultCallTiming, ...callTiming };
  // Recorded audio is written to this instance's spool as calls go, then kept in the store (docs/deploy.md#storage).
  const objectStore = givenObjectStore ?? createObjectStore(config, app.log);
  const spool = new AudioSpool(path.join(config.dataDir, 'spool'), objectStore, app.log);
  // The recordings' Opus encoding runs beside the calls, not on their thread (docs/calls.md#recording).
  const recordingEncoder = new EncoderProcess();
  const spoolRetry = setInterval(() => {
    spool.retryPending().catch((error: unknown) => app.log.warn({ err: error }, 'spool: retrying the files waiting for the store failed'));
  }, SPOOL_RETRY_MS);
  spoolRetry.unref();
  // The embedded database is locked to this process (db/data-dir-lock.ts): no other instance runs.
  const instance = new InstanceRegistry(db, { ...defaultInstanceTiming, ...instanceTiming }, app.log, database.driver === 'pglite');
  // With a Redis, a user's tabs may sit on any instance: signalling and presence go through it.
  const bus = createBus(config.REDIS_URL, app.log);
  const presence = redis ? new RedisPresence(redis, instance.id, app.log) : new MemoryPresence();
  const hub = new RealtimeHub({ log: app.log, bus, presence, instanceId: instance.id });
  metrics.countListeningTabs(() => hub.listeningTabs);
  // Whatever changes a user's things, in a request or as a payment lands, reaches their other tabs and devices.
  announceRouteChanges(app, auth, { hub, db, log: app.log });
  payments.onActivated((userId) => void announceChange({ hub, db, log: app.log }, userId, ['subscription']));
  // Websockets are authenticated once: ending a session (sign-out, password change or reset) closes its sockets.
  const sessionSockets = new SessionSockets({ db, bus, instanceId: instance.id, log: app.log });
  const webrtc = config.WEBRTC ? new WebRtcEndpoint({ portRange: config.WEBRTC_PORTS ?? null, publicAddress: config.WEBRTC_PUBLIC_ADDRESS ?? null }, metrics.media) : null;
  // Calls to a user's number that nobody takes go to their voicemail (docs/calls.md#voicemail).
  const voicemail = createVoicemail({ db, hub, store: objectStore, spool, messageAudio: spool, instanceId: instance.id, maxMessageMs: timing.voicemailMaxMessageMs, log: app.log });
  const calls = new CallService({
    db,
    hub,
    bus,
    telephony,
    timing,
    soundTestNumber: config.SOUND_TEST_NUMBER,
    providerCallbackUrl: config.providerCallbackUrl,
    instanceId: instance.id,
    draining,
    maxCalls: config.MAX_CALLS_PER_INSTANCE,
    webrtc,
    recording: recordingStorage ?? spooledRecordings(spool, recordingEncoder),
    voicemail: voicemail.taker,
    log: app.log,
    metrics,
  });
  const simulatedIncoming =
    telephony.name === 'local'
      ? new SimulatedIncomingCalls({ db, hub, calls, rate: config.SIMULATED_INCOMING_RATE, pollMs: timing.simulatedIncomingPollMs, log: app.log })
      : null;
  // Joining the instances closes the records that stopped ones left open, then keeps watching.
  const adoption = { db, adopt: adoptFromSpool(spool), log: app.log };
  instance.onSweep((running, closed) => {
    calls.forgetStoppedInstances(running, closed);
    // Recordings a stopped instance was writing: the file up to its last page is kept (docs/calls.md#recording).
    adoptUnfinishedRecordings(adoption, running).catch((error: unknown) => app.log.warn({ err: error }, 'could not finish the recordings a stopped server left'));
    voicemail.taker.adoptLeftBehind(running).catch((error: unknown) => app.log.warn({ err: error }, 'could not finish the voicemail messages a stopped server left'));
  });
  app.addHook('onReady', async () => {
    await calls.start();
    await sessionSockets.start();
    await instance.start();
    simulatedIncoming?.start();
  });
  // Retention, on one instance at a time (docs/operations.md#scheduled-jobs): timers from ready to close.
  scheduleJobs(app, { db, instanceId: instance.id, config, store: objectStore });
  // From the first SIGTERM (docs/deploy.md#draining): no new calls (CallService refuses them) and no
  // listening tabs here, the instance marked draining for the others; main.ts waits for the calls.
  draining.countCallsWith(() => calls.callsUsingThisInstance());
  draining.onBegin(() => {
    simulatedIncoming?.stop();
    hub.drain();
    void instance.markDraining();
  });
  // Every path into `ended` finalises the record, a shutdown included (docs/calls.md#states).
  endCallsForShutdown = async () => {
    draining.begin();
    try {
      await calls.endAll('The server is shutting down');
    } catch (error) {
      app.log.warn({ err: error }, 'shutdown: could not end the calls');
    }
  };
  // Each step runs whatever the one before met (Redis or the database away): a step that fails is logged.
  app.addHook('onClose', async () => {
    const step = async (what: string, run: () => unknown) => {
      try {
        await run();
      } catch (error) {
        app.log.warn({ err: error }, `shutdown: could not ${what}`);
      }
    };
    clearInterval(spoolRetry);
    await step('stop the recordings\' encoder process', () => recordingEncoder.close());
    simulatedIncoming?.stop();
    await step('release the WebRTC ports', () => webrtc?.close());
    await step('leave the list of running servers', () => instance.stop());
    hub.close();
    await step('close the session sockets', () => sessionSockets.close());
    await step('close presence', () => presence.close());
    await step('close the bus', () => bus.close());
    redis?.disconnect();
  });
  await serveMetrics(app, config, metrics, config.REDIS_URL ? new BusLagProbe(bus, instance.id, (seconds) => metrics.busLag.observe(seconds), app.log) : null);

  await app.register(
    async (api) => {
      await api.register(healthRoutes, { database, redis, draining, carriedCalls: () => calls.carriedCount(), maxCalls: config.MAX_CALLS_PER_INSTANCE });
      await api.register(clientErrorRoutes, { rateLimiter });
      await api.register(authRoutes, { auth, config, db, rateLimiter, sessionSockets });
      await api.register(accountRoutes, { auth, db, sessionSockets });
      await api.register(preferencesRoutes, { auth, db });
      await api.register(voiceSettingsRoutes, { auth, db, onSaved: (userId, settings) => calls.updateVoiceSettings(userId, settings) });
      await api.register(numbersRoutes, { auth, db, telephony, rateLimiter });
      await api.register(contactsRoutes, { auth, db });
      await api.register(realtimeRoutes, { auth, hub, sessionSockets });
      await api.register(mediaRoutes, { auth, webrtc: webrtc !== null, iceServers: { stunUrls: config.STUN_URLS ?? [], turnUrls: config.TURN_URLS ?? [], turnSecret: config.TURN_SECRET ?? null } });
      await api.register(callRoutes, { auth, db, calls, sessionSockets, soundTestNumber: config.SOUND_TEST_NUMBER });
      await api.register(plansRoutes, { auth, db });
      await api.register(supportRoutes, { auth, db, mailer: mail, rateLimiter, inbox: config.supportEmail });
      await api.register(recordingsRoutes, { auth, db, audio: spool });
      await api.register(voicemailRoutes, { auth, voicemail: voicemail.service, serveAudio: serveStoredAudio });
      const admin = new AdminService({ db, calls, deadAfterMs: instanceTiming?.deadAfterMs ?? defaultInstanceTiming.deadAfterMs, log: app.log });
      await api.register(adminRoutes, { prefix: '/admin', auth, adminEmails: config.ADMIN_EMAILS, admin });
      await api.register(paymentsRoutes, { auth, payments, rateLimiter, publicUrl: config.publicUrl });
      await api.register(paystackWebhookRoutes, {
        prefix: '/providers/paystack',
        payments,
        secretKey: payments.providerName === 'paystack' ? (config.PAYSTACK_SECRET_KEY ?? null) : null,
      });
      await api.register(vonageProviderRoutes, {
        prefix: '/providers/vonage',
        calls,
        vonage:
          config.TELEPHONY === 'vonage'
            ? {
                signatureSecret: config.VONAGE_SIGNATURE_SECRET!,
                applicationId: config.VONAGE_APPLICATION_ID!,
                // Shared with every instance, so that a webhook accepted by one is refused by the others.
                seenIds: redis ? new RedisWebhookIdStore(redis) : new MemoryWebhookIdStore(),
              }
            : null,
      });
    },
    { prefix: '/api/v1' },
  );
  await app.register(vonagePhoneRoutes, { prefix: '/functions/v1', auth, db, telephony, rateLimiter, calls });
  await app.register(swiftPaymentRoutes, { prefix: '/functions/v1', auth, payments, rateLimiter, publicUrl: config.publicUrl });
  if (payments.providerName === 'sandbox') await app.register(sandboxCheckoutRoutes, { prefix: '/sandbox', db });
  await app.register(authLinkRoutes, { auth, config });
  if (config.NODE_ENV !== 'production') await app.register(outboxRoutes, { db });

  await serveWebApp(app, webRoot);
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
