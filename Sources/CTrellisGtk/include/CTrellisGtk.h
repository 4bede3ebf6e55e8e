/* CTrellisGtk: the GObject code Trellis needs in C (one type per file). */
#ifndef CTRELLIS_GTK_H
#define CTRELLIS_GTK_H
#include "trellis-main-queue-bridge.h"
#include "trellis-row-item.h"
#include "trellis-list-model.h"
#include "trellis-signals.h"
#include "trellis-clamp.h"
#include "trellis-column-sort.h"
#include "trellis-accessible.h"
#include "trellis-all-selection.h"
#include "trellis-memory.h"
#include "trellis-confirmation-dialog.h"
#include "trellis-row-activation.h"
#include "trellis-row-label.h"
#endif

