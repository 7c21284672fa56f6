package io.kubelix.api.server;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * A link of the server chain (kube-apiserver's DelegationTarget): aggregator, core API,
 * apiextensions, then NotFound. Links are whiteboard services tried from the highest
 * {@code service.ranking} down; each handles an API request ({@code /api}, {@code /apis} and
 * below) it owns or passes it on. The request has already been authenticated and authorized, and
 * its {@link APIRequest#requestInfo() RequestInfo} and {@link APIRequest#user() user} are set.
 */
@ConsumerType
public interface DelegationTarget {
    /** Ranking of the core API link; the aggregator ranks above it, apiextensions below. */
    int CORE_API_RANKING = 0;

    /** A short name for logs and the status endpoint, such as {@code kube-apiserver}. */
    String name();

    /**
     * Handles the request, on a thread of the server's, which it may block (the request then holds
     * the thread while it streams).
     * <ul>
     *   <li>Returning false passes the request to the next link: the link must not have read the
     *       body nor touched the response.</li>
     *   <li>Returning true takes the request: the link then ends {@code response} with
     *       {@link APIResponse#complete()} or {@link APIResponse#fail(Throwable)}, before returning
     *       or later on a thread of its own.</li>
     *   <li>Throwing also takes the request, and the link must not touch the response
     *       afterwards: before the response is committed, a {@code StatusException} is answered as
     *       its Status and anything else is logged and answered 500 InternalError; after, the
     *       response is cut short as by {@link APIResponse#fail(Throwable)}.</li>
     * </ul>
     */
    boolean handle(APIRequest request, APIResponse response) throws Exception;
}
