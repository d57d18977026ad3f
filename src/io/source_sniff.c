/*
 * source_sniff.c - magic numbers and the text/binary guess (source_sniff.h).
 *
 * Owns the tables of magic bytes.  The binary guess is deliberately blunt: PGN is text,
 * so a start with many control bytes (beyond tab, line ends, form feed and ESC) or mostly
 * bytes that are not UTF-8 is binary.  A few NULs or control bytes in real text stay
 * text (the reader reports them as CONTROL_BYTE), and so does Latin-1 or CP1252 text.
 */
#include "io/source_sniff.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "base/utf8.h"

struct magic {
    size_t at;
    const char *bytes;
    size_t len;
    enum sniff_kind kind;
    const char *what;
};

#define M(at, s, kind, what) {at, s, sizeof s - 1, kind, what}

/* Formats libarchive reads or that are no text at all, by their leading bytes. */
static const struct magic container_magic[] = {
    M(0, "\x1f\x8b", SNIFF_GZIP, "gzip"),
    M(0, "BZh", SNIFF_ARCHIVE, "bzip2"),
    M(0, "\xfd" "7zXZ\x00", SNIFF_ARCHIVE, "xz"),
    M(0, "PK\x03\x04", SNIFF_ARCHIVE, "zip archive"),
    M(0, "PK\x05\x06", SNIFF_ARCHIVE, "zip archive"),
    M(0, "PK\x07\x08", SNIFF_ARCHIVE, "zip archive"),
    M(0, "7z\xbc\xaf\x27\x1c", SNIFF_ARCHIVE, "7z archive"),
    M(0, "Rar!\x1a\x07", SNIFF_ARCHIVE, "RAR archive"),
    M(0, "LZIP", SNIFF_ARCHIVE, "lzip"),
    M(0, "\x04\x22\x4d\x18", SNIFF_ARCHIVE, "lz4"),
    M(0, "\x1f\x9d", SNIFF_ARCHIVE, "compress (.Z)"),
    M(257, "ustar", SNIFF_ARCHIVE, "tar archive"),
};

/* Formats that are no PGN, whether found raw or inside an archive or compressor. */
static const struct magic foreign_magic[] = {
    M(0, "%PDF-", SNIFF_FOREIGN, "a PDF document"),
    M(0, "%!PS", SNIFF_FOREIGN, "a PostScript document"),
    M(0, "\x7f" "ELF", SNIFF_FOREIGN, "an ELF executable or library"),
    M(0, "MZ", SNIFF_FOREIGN, "a Windows executable"),
    M(0, "\xcf\xfa\xed\xfe", SNIFF_FOREIGN, "a Mach-O executable"),
    M(0, "\xca\xfe\xba\xbe", SNIFF_FOREIGN, "a Java class or Mach-O executable"),
    M(0, "\x89PNG\r\n\x1a\n", SNIFF_FOREIGN, "a PNG image"),
    M(0, "\xff\xd8\xff", SNIFF_FOREIGN, "a JPEG image"),
    M(0, "GIF87a", SNIFF_FOREIGN, "a GIF image"),
    M(0, "GIF89a", SNIFF_FOREIGN, "a GIF image"),
    M(0, "II*\x00", SNIFF_FOREIGN, "a TIFF image"),
    M(0, "MM\x00*", SNIFF_FOREIGN, "a TIFF image"),
    M(8, "WEBP", SNIFF_FOREIGN, "a WebP image"),
    M(0, "RIFF", SNIFF_FOREIGN, "a RIFF file (audio or video)"),
    M(4, "ftyp", SNIFF_FOREIGN, "an ISO media file (MP4, MOV or HEIC)"),
    M(0, "ID3", SNIFF_FOREIGN, "an MP3 audio file"),
    M(0, "OggS", SNIFF_FOREIGN, "an Ogg media file"),
    M(0, "fLaC", SNIFF_FOREIGN, "a FLAC audio file"),
    M(0, "\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", SNIFF_FOREIGN,
      "an old Microsoft Office document (.doc, .xls, .ppt)"),
    M(0, "{\\rtf", SNIFF_FOREIGN, "an RTF document"),
    M(0, "SQLite format 3", SNIFF_FOREIGN, "an SQLite database"),
};

#undef M

static const struct magic *find_magic(const struct magic *table, size_t count,
                                      const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < count; i++) {
        const struct magic *m = &table[i];
        if (n >= m->at + m->len && memcmp(p + m->at, m->bytes, m->len) == 0)
            return m;
    }
    return NULL;
}

static struct sniff from_magic(const struct magic *m)
{
    return (struct sniff){m->kind, m->what, 0};
}

static bool is_zstd_magic(const unsigned char *p, size_t n)
{
    if (n < 4)
        return false;
    uint32_t m = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    /* A zstd frame, or a skippable frame (0x184D2A50..5F). */
    return m == 0xFD2FB528u || (m & 0xFFFFFFF0u) == 0x184D2A50u;
}

/* Entries are tried in order: WebP (RIFF....WEBP) before any other RIFF file. */
static const struct magic *find_foreign(const unsigned char *p, size_t n)
{
    return find_magic(foreign_magic, sizeof foreign_magic / sizeof *foreign_magic, p, n);
}

struct sniff sniff_container(const unsigned char *p, size_t n)
{
    if (is_zstd_magic(p, n))
        return (struct sniff){SNIFF_ZSTD, "zstd", 0};
    const struct magic *m =
        find_magic(container_magic, sizeof container_magic / sizeof *container_magic, p, n);
    if (!m)
        m = find_foreign(p, n);
    return m ? from_magic(m) : (struct sniff){SNIFF_TEXT, NULL, 0};
}

/*
 * UTF-16 without a byte-order mark: PGN is nearly all ASCII, so every other byte is 0.
 * Looks at up to 256 code units; most of the high (or low) halves must be NUL and few of
 * the others.
 */
static enum sniff_kind utf16_by_nuls(const unsigned char *p, size_t n)
{
    size_t units = n / 2 > 256 ? 256 : n / 2;
    if (units < 2)
        return SNIFF_TEXT;
    size_t even_nul = 0, odd_nul = 0;
    for (size_t i = 0; i < units; i++) {
        even_nul += p[2 * i] == 0;
        odd_nul += p[2 * i + 1] == 0;
    }
    if (odd_nul * 10 >= units * 9 && even_nul * 10 <= units)
        return SNIFF_UTF16LE;
    if (even_nul * 10 >= units * 9 && odd_nul * 10 <= units)
        return SNIFF_UTF16BE;
    return SNIFF_TEXT;
}

/*
 * Binary: more than 1 byte in 16 a control byte, or more than a third of the bytes
 * neither ASCII nor UTF-8.  A sequence cut by the end of the sample counts as UTF-8.
 */
static bool looks_binary(const unsigned char *p, size_t n)
{
    size_t control = 0, foreign = 0;
    for (size_t i = 0; i < n;) {
        unsigned char c = p[i];
        if (c < 0x80) {
            bool space = c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
            control += (c < 0x20 && !space && c != 0x1b) || c == 0x7f;
            i++;
            continue;
        }
        size_t len = utf8_char_len(p + i, n - i);
        if (len == 0 && n - i < 4)
            break;
        if (len == 0) {
            foreign++;
            i++;
        } else {
            i += len;
        }
    }
    return control * 16 > n || foreign * 3 > n;
}

struct sniff sniff_text(const unsigned char *p, size_t n)
{
    if (n >= 2 && p[0] == 0xff && p[1] == 0xfe)
        return (struct sniff){SNIFF_UTF16LE, "UTF-16LE", 2};
    if (n >= 2 && p[0] == 0xfe && p[1] == 0xff)
        return (struct sniff){SNIFF_UTF16BE, "UTF-16BE", 2};
    enum sniff_kind utf16 = utf16_by_nuls(p, n);
    if (utf16 != SNIFF_TEXT)
        return (struct sniff){utf16, utf16 == SNIFF_UTF16LE ? "UTF-16LE" : "UTF-16BE", 0};
    const struct magic *m = find_foreign(p, n);
    if (m)
        return from_magic(m);
    if (looks_binary(p, n))
        return (struct sniff){SNIFF_FOREIGN, "binary data", 0};
    return (struct sniff){SNIFF_TEXT, NULL, 0};
}
