#ifndef SWIFT_HOME_COPENSSL_SHIM_H
#define SWIFT_HOME_COPENSSL_SHIM_H
// Deprecated EC_KEY/low-level APIs stay usable without warnings; we prefer EVP where it exists.
#define OPENSSL_SUPPRESS_DEPRECATED 1
#include <openssl/bn.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/kdf.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include <openssl/obj_mac.h>
#include <openssl/rand.h>
#include <openssl/sha.h>
#include <openssl/x509.h>
#include <openssl/pem.h>
#endif
