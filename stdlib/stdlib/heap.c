/* C's allocation functions on the device heap. Every block starts 16 bytes after a header
 * that holds its usable size and the start of the underlying allocation, so realloc knows how
 * much to copy and a block from aligned_alloc frees like any other. The bytes come from the
 * device allocator the CUDA driver gives every module (`malloc`/`free`; the emulator provides
 * the same two), which returns 16-byte aligned memory. Every allocation the library itself
 * makes goes through __ompcc_malloc, so any pointer it returns can be passed to free and
 * realloc. */
#include "ompcc_stdlib.h"
#include "ompcc_string.h"

/* The driver's allocator. */
void *malloc(unsigned long size);
void free(void *p);

struct block_header {
    unsigned long size;
    void *base;
};

static struct block_header *header_of(void *p) {
    return (struct block_header *)p - 1;
}

void *__ompcc_aligned_alloc(unsigned long align, unsigned long size) {
    if (align == 0 || (align & (align - 1)) != 0) {
        return 0;
    }
    if (align < 16) {
        align = 16;
    }
    /* The block starts at the first multiple of `align` at least 16 bytes into the
     * allocation: at most `align` bytes in, since the allocation is 16-byte aligned. */
    if (size > (unsigned long)-1 - align) {
        return 0;
    }
    char *base = malloc(size + align);
    if (base == 0) {
        return 0;
    }
    unsigned long at = ((unsigned long)base + 16 + align - 1) & ~(align - 1);
    void *p = (void *)at;
    header_of(p)->size = size;
    header_of(p)->base = base;
    return p;
}

void *__ompcc_malloc(unsigned long size) {
    return __ompcc_aligned_alloc(16, size);
}

void __ompcc_free(void *p) {
    if (p != 0) {
        free(header_of(p)->base);
    }
}

/* As glibc: a null pointer allocates; size 0 frees and returns a null pointer; a block
 * that already has room is kept. */
void *__ompcc_realloc(void *p, unsigned long size) {
    if (p == 0) {
        return __ompcc_malloc(size);
    }
    if (size == 0) {
        __ompcc_free(p);
        return 0;
    }
    unsigned long old = header_of(p)->size;
    if (size <= old) {
        return p;
    }
    void *q = __ompcc_malloc(size);
    if (q != 0) {
        __ompcc_memcpy(q, p, old);
        __ompcc_free(p);
    }
    return q;
}

/* POSIX: the alignment must be a power of two multiple of sizeof(void *); errors are
 * returned (EINVAL 22, ENOMEM 12), not put in errno. */
int __ompcc_posix_memalign(void **out, unsigned long align, unsigned long size) {
    if (align < sizeof(void *) || (align & (align - 1)) != 0) {
        return 22;
    }
    void *p = __ompcc_aligned_alloc(align, size);
    if (p == 0) {
        return 12;
    }
    *out = p;
    return 0;
}

void *__ompcc_calloc(unsigned long n, unsigned long size) {
    if (size != 0 && n > (unsigned long)-1 / size) {
        return 0;
    }
    void *p = __ompcc_malloc(n * size);
    if (p != 0) {
        __ompcc_memset(p, 0, n * size);
    }
    return p;
}
