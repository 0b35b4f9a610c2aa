/** A DNS-1123 label, at most 63 characters: what Kubernetes takes for a namespace (and a service account's namespace). */
export const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

/** A DNS-1123 subdomain, at most 253 characters: what Kubernetes takes for most object names. */
export const DNS1123_SUBDOMAIN = /^(?=.{1,253}$)[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
