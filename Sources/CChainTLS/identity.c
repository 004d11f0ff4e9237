#define _GNU_SOURCE
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

// An hour back, for a client whose clock runs a little behind; three days ahead, far longer
// than any test process, short enough that a stray copy is soon worthless.
#define VALIDITY_BACK_SECONDS 3600L
#define VALIDITY_SECONDS (3L * 24 * 3600)

// The extensions, added in this order (the authority key identifier copies the subject key
// identifier, so that one comes first). The certificate is an end-entity certificate that a
// client trusts directly: OpenSSL takes a self-signed certificate from the CA file as a trust
// anchor by itself, CA:FALSE included (checked with curl 7.88 and `openssl verify`, also with
// -x509_strict and -check_ss_sig). CA:TRUE would be accepted too, but only with keyCertSign
// in the key usage (without it, checking the self-signature fails with "key usage does not
// include certificate signing"), and then it would be a CA able to sign for any name.
static const struct {
    int nid;
    const char *value;
} extensions[] = {
    {NID_basic_constraints, "critical,CA:FALSE"},
    // ECDSA signs the handshake: digitalSignature is the one usage a TLS server key needs.
    {NID_key_usage, "critical,digitalSignature"},
    {NID_ext_key_usage, "serverAuth"},
    {NID_subject_key_identifier, "hash"},
    {NID_authority_key_identifier, "keyid:always"},
    // libcurl checks the address against the IP entries and a name against the DNS ones.
    {NID_subject_alt_name, "IP:127.0.0.1,DNS:localhost"},
};

static int set_random_serial(X509 *certificate) {
    unsigned char bytes[16];
    if (RAND_bytes(bytes, sizeof bytes) != 1) return 0;
    // Positive (DER integers are signed) and not shorter than it looks.
    bytes[0] = (unsigned char)((bytes[0] & 0x7f) | 0x40);
    BIGNUM *number = BN_bin2bn(bytes, sizeof bytes, NULL);
    if (number == NULL) return 0;
    int done = BN_to_ASN1_INTEGER(number, X509_get_serialNumber(certificate)) != NULL;
    BN_free(number);
    return done;
}

static int add_extensions(X509 *certificate) {
    X509V3_CTX context;
    X509V3_set_ctx_nodb(&context);
    // Self-signed: the issuer is the certificate itself.
    X509V3_set_ctx(&context, certificate, certificate, NULL, NULL, 0);
    for (size_t index = 0; index < sizeof extensions / sizeof extensions[0]; index++) {
        X509_EXTENSION *extension = X509V3_EXT_conf_nid(NULL, &context, extensions[index].nid, extensions[index].value);
        if (extension == NULL) return 0;
        int added = X509_add_ext(certificate, extension, -1);
        X509_EXTENSION_free(extension);
        if (!added) return 0;
    }
    return 1;
}

/// Writes the PEM in `pem` to `path`, created or truncated. With `private_mode` the file is
/// made 0600 before a byte is written, whatever mode an existing file had; otherwise it gets
/// 0644 less the umask. Returns 0, or -1 with a message.
static int write_file(const char *path, BIO *pem, int private_mode, char *error, size_t error_length) {
    char *bytes = NULL;
    long length = BIO_get_mem_data(pem, &bytes);
    if (length <= 0 || bytes == NULL) {
        chain_tls_report_openssl(error, error_length, "encoding PEM");
        return -1;
    }
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, private_mode ? 0600 : 0644);
    if (fd < 0) {
        char what[512];
        snprintf(what, sizeof what, "creating %s", path);
        chain_tls_report_errno(error, error_length, what, errno);
        return -1;
    }
    if (private_mode && fchmod(fd, 0600) != 0) {
        int code = errno;
        close(fd);
        char what[512];
        snprintf(what, sizeof what, "making %s private", path);
        chain_tls_report_errno(error, error_length, what, code);
        return -1;
    }
    long written = 0;
    while (written < length) {
        ssize_t count = write(fd, bytes + written, (size_t)(length - written));
        if (count < 0 && errno == EINTR) continue;
        if (count <= 0) {
            int code = count < 0 ? errno : EIO;
            close(fd);
            char what[512];
            snprintf(what, sizeof what, "writing %s", path);
            chain_tls_report_errno(error, error_length, what, code);
            return -1;
        }
        written += count;
    }
    if (close(fd) != 0) {
        char what[512];
        snprintf(what, sizeof what, "writing %s", path);
        chain_tls_report_errno(error, error_length, what, errno);
        return -1;
    }
    return 0;
}

int chain_tls_make_identity(const char *certificate_path, const char *key_path, char *error, size_t error_length) {
    if (certificate_path == NULL || key_path == NULL) {
        if (error != NULL && error_length > 0) snprintf(error, error_length, "no path for the certificate or the key");
        return -1;
    }
    ERR_clear_error();
    int result = -1;
    X509 *certificate = NULL;
    BIO *certificate_pem = NULL;
    BIO *key_pem = NULL;
    EVP_PKEY *key = EVP_EC_gen("P-256");
    if (key == NULL) {
        chain_tls_report_openssl(error, error_length, "making a P-256 key");
        goto done;
    }
    certificate = X509_new();
    if (certificate == NULL || !X509_set_version(certificate, X509_VERSION_3) || !set_random_serial(certificate)
        || X509_gmtime_adj(X509_getm_notBefore(certificate), -VALIDITY_BACK_SECONDS) == NULL
        || X509_gmtime_adj(X509_getm_notAfter(certificate), VALIDITY_SECONDS) == NULL) {
        chain_tls_report_openssl(error, error_length, "making the certificate");
        goto done;
    }
    X509_NAME *name = X509_get_subject_name(certificate);
    if (name == NULL
        || !X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, (const unsigned char *)"127.0.0.1", -1, -1, 0)
        || !X509_set_issuer_name(certificate, name) || !X509_set_pubkey(certificate, key)) {
        chain_tls_report_openssl(error, error_length, "naming the certificate");
        goto done;
    }
    if (!add_extensions(certificate)) {
        chain_tls_report_openssl(error, error_length, "adding the certificate's extensions");
        goto done;
    }
    if (X509_sign(certificate, key, EVP_sha256()) <= 0) {
        chain_tls_report_openssl(error, error_length, "signing the certificate");
        goto done;
    }
    certificate_pem = BIO_new(BIO_s_mem());
    // Secure memory: its buffer is cleansed when freed, so the key's PEM does not linger.
    key_pem = BIO_new(BIO_s_secmem());
    if (certificate_pem == NULL || key_pem == NULL || !PEM_write_bio_X509(certificate_pem, certificate)
        || !PEM_write_bio_PrivateKey(key_pem, key, NULL, NULL, 0, NULL, NULL)) {
        chain_tls_report_openssl(error, error_length, "encoding the identity as PEM");
        goto done;
    }
    if (write_file(key_path, key_pem, 1, error, error_length) != 0) goto done;
    if (write_file(certificate_path, certificate_pem, 0, error, error_length) != 0) goto done;
    result = 0;

done:
    BIO_free(key_pem);
    BIO_free(certificate_pem);
    X509_free(certificate);
    EVP_PKEY_free(key);
    ERR_clear_error();
    return result;
}
