package io.kubelix.runtime.flowcontrol;

import io.kubelix.api.request.RequestInfo;
import io.kubelix.api.request.UserInfo;

/** What classification looks at (kube's RequestDigest): the parsed request and who makes it. */
public record RequestDigest(RequestInfo info, UserInfo user) {
}
