package io.kubelix.storage.etcd;

import io.kubelix.api.storage.StorageErrors;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.ClientBuilder;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.Txn;
import io.etcd.jetcd.api.KVGrpc;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.op.TxnImpl;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.support.Requests;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCalls;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.errors.StatusReason;
import io.kubelix.api.storage.StorageException;
import io.netty.handler.ssl.SslContextBuilder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.net.ssl.SSLException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

/**
 * The backend's one connection to etcd (a jetcd {@link Client}) with the calls the storage needs,
 * each bounded by {@link #REQUEST_TIMEOUT}: unary RPCs carry that gRPC deadline, are not queued
 * while etcd is down (no wait-for-ready), and the caller stops waiting shortly after it, so no
 * request hangs on a lost etcd.
 *
 * <p>Reads and transactions, one per API write, go straight to the KV service on jetcd's channel
 * as blocking gRPC calls: the request thread sends, and gRPC runs the answer's callbacks on that
 * same thread when Netty has read it. jetcd's own KV client hands each call to its executor, builds
 * a retry policy for it and completes it through Vert.x, three more threads woken per write.
 */
final class EtcdClient implements AutoCloseable {
    /** The deadline of one etcd request (kube-apiserver's default request timeout is longer, but it retries). */
    static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);
    /** How often a read is tried again when etcd is unavailable (jetcd's {@code retryMaxAttempts} before). */
    private static final int READ_RETRIES = 2;
    private static final Logger LOG = LoggerFactory.getLogger(EtcdClient.class);

    private final Client client;
    private final KV kv;
    /** jetcd's channel (its name resolver, TLS and {@link UnaryDeadline}), for the direct KV calls. */
    private final Channel channel;
    private final String target;
    /** False while etcd is unreachable: the change is logged once each way, not once per request. */
    private final AtomicBoolean reachable = new AtomicBoolean(true);

    EtcdClient(EtcdSettings settings) {
        this.target = String.join(",", settings.servers().stream().map(Object::toString).toList());
        ClientBuilder b = Client.builder()
                .endpoints(settings.endpoints())
                .waitForReady(false)
                .connectTimeout(Duration.ofSeconds(5))
                .keepaliveTime(Duration.ofSeconds(30))
                .keepaliveTimeout(Duration.ofSeconds(10))
                .retryMaxAttempts(2)
                .retryDelay(200)
                .retryMaxDelay(1000)
                .retryMaxDuration(Duration.ofSeconds(5))
                .interceptor(new UnaryDeadline());
        if (settings.tls()) {
            try {
                b.sslContext(ssl -> configureTls(ssl, settings));
            } catch (SSLException e) {
                throw new IllegalArgumentException("cannot set up TLS to etcd: " + e.getMessage(), e);
            }
            b.authority(settings.servers().get(0).getHost());
        } else if (settings.caFile() != null || settings.certFile() != null) {
            LOG.warn("etcd-cafile/etcd-certfile/etcd-keyfile are ignored: etcd-servers {} are not https://", target);
        }
        this.client = b.build();
        this.kv = client.getKVClient();
        this.channel = JetcdChannel.of(client);
    }

    private static void configureTls(SslContextBuilder ssl, EtcdSettings settings) {
        if (settings.caFile() != null) {
            ssl.trustManager(settings.caFile().toFile());
        }
        if (settings.certFile() != null) {
            ssl.keyManager(settings.certFile().toFile(), settings.keyFile().toFile());
        }
    }

    String target() {
        return target;
    }

    Client client() {
        return client;
    }

    /** @throws io.kubelix.api.errors.StatusException 504 when {@code revision} is in the future, 410 when compacted */
    GetResponse get(ByteSequence key, GetOption option, String storageKey, long revision) {
        try {
            return new GetResponse(call(KVGrpc.getRangeMethod(), Requests.mapRangeRequest(key, option, ByteSequence.EMPTY),
                    storageKey, revision, READ_RETRIES), ByteSequence.EMPTY);
        } catch (EtcdErrors.FutureRevision e) {
            throw StorageErrors.tooLargeResourceVersion(e.requested, currentRevision());
        }
    }

    /** Builds and commits one transaction (never retried: its writes may have been applied). */
    TxnResponse txn(Function<Txn, Txn> build, String storageKey) {
        // jetcd's Txn builds the request; the call is made, and answered, before commit() returns.
        return build.apply(TxnImpl.newTxn(request -> CompletableFuture.completedFuture(new TxnResponse(
                call(KVGrpc.getTxnMethod(), request, storageKey, 0, 0), ByteSequence.EMPTY)), ByteSequence.EMPTY))
                .commit().join();
    }

    /**
     * One unary call on the calling thread, tried again up to {@code retries} times after an
     * {@code UNAVAILABLE} answer (a read only, as jetcd retries them), 200 ms later and then twice
     * as late each time.
     */
    private <Q, R> R call(MethodDescriptor<Q, R> method, Q request, String key, long revision, int retries) {
        for (int attempt = 0; ; attempt++) {
            try {
                R result = ClientCalls.blockingUnaryCall(channel, method, CallOptions.DEFAULT, request);
                if (reachable.compareAndSet(false, true)) {
                    LOG.info("etcd {} is reachable again", target);
                }
                return result;
            } catch (StatusRuntimeException e) {
                if (Thread.currentThread().isInterrupted()) {
                    throw EtcdErrors.unreachable(key, "interrupted", e);
                }
                if (attempt < retries && e.getStatus().getCode() == Status.Code.UNAVAILABLE && backOff(attempt)) {
                    continue;
                }
                throw failed(e, key, revision);
            }
        }
    }

    private static boolean backOff(int attempt) {
        try {
            Thread.sleep(200L << attempt);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    void compact(long revision) {
        await(kv.compact(revision), "compact", revision);
    }

    /** The current revision of the whole etcd, read consistently. */
    long currentRevision() {
        GetResponse r = get(Keys.bytes("\u0000"), GetOption.builder().withCountOnly(true).build(), "/", 0);
        return r.getHeader().getRevision();
    }

    /**
     * Whether no key in {@code key} (up to {@code rangeEnd}, when not null) was put or deleted in
     * the revisions {@code (after, upTo]}: no key at {@code upTo} was modified after {@code after},
     * and as many keys exist at {@code upTo} as at {@code after}. (A count-only read ignores the
     * modification filter, so the first read asks for at most one key.)
     */
    boolean unchanged(ByteSequence key, ByteSequence rangeEnd, long after, long upTo) {
        if (after <= 0 || upTo < after) {
            return false;
        }
        GetOption.Builder modified = GetOption.builder().withKeysOnly(true).withLimit(1).withRevision(upTo)
                .withMinModRevision(after + 1);
        GetOption.Builder countNow = GetOption.builder().withCountOnly(true).withRevision(upTo);
        GetOption.Builder countThen = GetOption.builder().withCountOnly(true).withRevision(after);
        if (rangeEnd != null) {
            modified.withRange(rangeEnd);
            countNow.withRange(rangeEnd);
            countThen.withRange(rangeEnd);
        }
        // One read-only transaction: a round trip instead of three for each progress notification checked.
        List<GetResponse> r = txn(txn -> txn.Then(Op.get(key, modified.build()), Op.get(key, countNow.build()),
                Op.get(key, countThen.build())), "progress").getGetResponses();
        return r.get(0).getKvs().isEmpty() && r.get(1).getCount() == r.get(2).getCount();
    }

    /** Reads one key, failing when etcd does not answer within {@code timeout} (the health check). */
    void ping(Duration timeout) {
        CompletableFuture<GetResponse> f = kv.get(Keys.bytes("health"), GetOption.builder().withCountOnly(true).build());
        try {
            f.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            f.cancel(true);
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted");
        } catch (TimeoutException e) {
            f.cancel(true);
            throw new IllegalStateException("etcd " + target + " did not answer within " + timeout.toMillis() + "ms");
        } catch (ExecutionException e) {
            throw new IllegalStateException("etcd " + target + " is unreachable: "
                    + EtcdErrors.describe(EtcdErrors.unwrap(e)));
        }
    }

    private <T> T await(CompletableFuture<T> f, String key, long revision) {
        T result;
        try {
            result = f.get(REQUEST_TIMEOUT.toMillis() + 2000, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            f.cancel(true);
            Thread.currentThread().interrupt();
            throw EtcdErrors.unreachable(key, "interrupted", e);
        } catch (TimeoutException e) {
            f.cancel(true);
            throw unreachable(EtcdErrors.timeout(key, "no answer within " + REQUEST_TIMEOUT.toSeconds() + "s"));
        } catch (ExecutionException e) {
            throw failed(e, key, revision);
        }
        if (reachable.compareAndSet(false, true)) {
            LOG.info("etcd {} is reachable again", target);
        }
        return result;
    }

    private RuntimeException failed(Throwable error, String key, long revision) {
        RuntimeException mapped = EtcdErrors.map(error, key, revision);
        boolean lost = mapped instanceof StorageException se && se.code() == StorageException.Code.UNREACHABLE
                || mapped instanceof StatusException st && st.reason() == StatusReason.TIMEOUT;
        return lost ? unreachable(mapped) : mapped;
    }

    private RuntimeException unreachable(RuntimeException error) {
        if (reachable.compareAndSet(true, false)) {
            LOG.warn("etcd {} is unreachable, requests fail until it answers again: {}", target, error.getMessage());
        }
        return error;
    }

    @Override
    public void close() {
        client.close();
    }

    /** Gives every unary call the request deadline; the watch stream, which is long-lived, gets none. */
    private static final class UnaryDeadline implements ClientInterceptor {
        @Override
        public <Q, R> ClientCall<Q, R> interceptCall(MethodDescriptor<Q, R> method, CallOptions options, Channel next) {
            if (method.getType() == MethodDescriptor.MethodType.UNARY && options.getDeadline() == null) {
                options = options.withDeadlineAfter(REQUEST_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            }
            return next.newCall(method, options);
        }
    }
}
