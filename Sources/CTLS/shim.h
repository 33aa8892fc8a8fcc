#ifndef SWIFT_HOME_CTLS_SHIM_H
#define SWIFT_HOME_CTLS_SHIM_H
// OpenSSL's TLS client (libssl), for the hub's HTTPS fetches (firmware records and images from the DCL).
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

// Macros Swift cannot call, as functions.
static inline long swift_home_tls_set_server_name(SSL *ssl, const char *name) {
    return SSL_set_tlsext_host_name(ssl, name);
}

static inline int swift_home_tls_require_tls12(SSL_CTX *context) {
    return (int)SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION);
}
#endif
