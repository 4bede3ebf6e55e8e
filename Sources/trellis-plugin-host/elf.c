/* elf.c: where the libraries a plugin links live, read from its ELF file before it is opened
 * (its RUNPATH, as the dynamic loader will follow it), so that Landlock lets the loader read
 * them: a Swift plugin's runtime, wherever the toolchain is. */
#define _GNU_SOURCE
#include <elf.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "confine.h"

static void add_read_only (confine_spec *spec, const char *path)
{
    if (spec->read_only_count < CONFINE_MAXIMUM_PATHS) spec->read_only[spec->read_only_count++] = path;
}

/* Adds each folder of the colon-separated `list`, $ORIGIN standing for `origin`. */
static void add_search_list (confine_spec *spec, const char *list, const char *origin)
{
    char *copy = strdup (list), *save = NULL;
    for (char *item = copy ? strtok_r (copy, ":", &save) : NULL; item; item = strtok_r (NULL, ":", &save)) {
        const char *rest = NULL;
        if (strncmp (item, "$ORIGIN", 7) == 0) rest = item + 7;
        else if (strncmp (item, "${ORIGIN}", 9) == 0) rest = item + 9;
        if (rest) {
            char *joined = malloc (strlen (origin) + strlen (rest) + 1);
            if (joined) {
                strcpy (joined, origin);
                strcat (joined, rest);
                add_read_only (spec, joined);
            }
        } else if (item[0] == '/') {
            add_read_only (spec, strdup (item));
        }
    }
    free (copy);
}

void elf_library_folders (const char *library, confine_spec *spec, char **interpreter)
{
    char *resolved = realpath (library, NULL);
    if (!resolved) return;
    char *origin = strdup (resolved);
    if (origin) *strrchr (origin, '/') = 0;
    add_read_only (spec, resolved);
    if (origin) add_read_only (spec, origin);
    const char *paths = getenv ("LD_LIBRARY_PATH");
    if (paths && origin) add_search_list (spec, paths, origin);

    int fd = open (resolved, O_RDONLY | O_CLOEXEC);
    struct stat info;
    if (fd < 0 || fstat (fd, &info) != 0 || !S_ISREG (info.st_mode) || (size_t) info.st_size < sizeof (Elf64_Ehdr)) {
        if (fd >= 0) close (fd);
        return;
    }
    size_t size = (size_t) info.st_size;
    const unsigned char *file = mmap (NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
    close (fd);
    if (file == MAP_FAILED) return;
    const Elf64_Ehdr *header = (const Elf64_Ehdr *) file;
    /* Every offset is checked against the file's size: the file is the plugin's, not ours. */
    if (memcmp (header->e_ident, ELFMAG, SELFMAG) != 0 || header->e_ident[EI_CLASS] != ELFCLASS64
        || header->e_phoff > size || header->e_phnum > (size - header->e_phoff) / sizeof (Elf64_Phdr))
        goto done;
    const Elf64_Phdr *segments = (const Elf64_Phdr *) (file + header->e_phoff);
    const Elf64_Dyn *dynamic = NULL;
    size_t dynamic_count = 0;
    for (int i = 0; i < header->e_phnum; i++) {
        const Elf64_Phdr *segment = &segments[i];
        if (segment->p_offset > size || segment->p_filesz > size - segment->p_offset) continue;
        if (segment->p_type == PT_DYNAMIC) {
            dynamic = (const Elf64_Dyn *) (file + segment->p_offset);
            dynamic_count = segment->p_filesz / sizeof *dynamic;
        } else if (segment->p_type == PT_INTERP && interpreter && segment->p_filesz > 1) {
            *interpreter = strndup ((const char *) file + segment->p_offset, segment->p_filesz);
        }
    }
    /* The string table's address is a virtual one: find the segment that maps it. */
    uint64_t strings_address = 0;
    for (size_t i = 0; dynamic && i < dynamic_count && dynamic[i].d_tag != DT_NULL; i++)
        if (dynamic[i].d_tag == DT_STRTAB) strings_address = dynamic[i].d_un.d_ptr;
    uint64_t strings_offset = 0;
    for (int i = 0; i < header->e_phnum; i++) {
        const Elf64_Phdr *segment = &segments[i];
        if (segment->p_type == PT_LOAD && strings_address >= segment->p_vaddr && strings_address < segment->p_vaddr + segment->p_filesz)
            strings_offset = strings_address - segment->p_vaddr + segment->p_offset;
    }
    for (size_t i = 0; strings_offset && i < dynamic_count && dynamic[i].d_tag != DT_NULL; i++) {
        if (dynamic[i].d_tag != DT_RUNPATH && dynamic[i].d_tag != DT_RPATH) continue;
        uint64_t at = strings_offset + dynamic[i].d_un.d_val;
        if (at >= size || !memchr (file + at, 0, size - at)) continue;
        if (origin) add_search_list (spec, (const char *) file + at, origin);
    }
done:
    munmap ((void *) file, size);
}
