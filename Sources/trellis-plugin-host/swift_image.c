/* swift_image.c: this program is C, but SwiftPM links every executable with the Swift
 * driver, which adds swiftrt.o: a constructor registering the image's (here empty) Swift
 * metadata sections with the runtime. These two definitions answer its references, so the
 * link needs nothing of the runtime (Package.swift links it statically, and with nothing
 * referenced nothing of it is taken) and the process loads no Swift library: a C plugin's
 * process stays at about 2 MiB instead of 8 (issue #37). They are hidden: a Swift plugin
 * opened later binds to its own runtime's, never to these. */
__attribute__ ((visibility ("hidden"))) void swift_addNewDSOImage (const void *sections);
__attribute__ ((visibility ("hidden"))) int _swift_backtrace_isThunkFunction (const char *name);

void swift_addNewDSOImage (const void *sections)
{
    (void) sections;
}

int _swift_backtrace_isThunkFunction (const char *name)
{
    (void) name;
    return 0;
}
