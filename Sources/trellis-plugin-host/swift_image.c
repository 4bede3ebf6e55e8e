/* swift_image.c: this program is C, but SwiftPM links every executable with the Swift
 * driver, which adds swiftrt.o: a constructor registering the image's (here empty) Swift
 * metadata sections with the runtime. These two definitions answer its references, so the
 * link needs nothing of the runtime: a release build links it statically, and with nothing
 * referenced nothing of it is taken, so the process loads no Swift library (a C plugin's
 * process is about 4 MiB; see Package.swift for debug builds). They are hidden: a Swift
 * plugin opened later binds to its own runtime's, never to these. */
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
