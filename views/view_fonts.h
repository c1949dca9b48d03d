// The fonts the views draw with wherever a size or a position depends on the
// font (code listings and their scrolling, graph nodes and their layout, the
// device struct): DejaVu, which Loupe's setup installs (fonts-dejavu-core),
// so the views look, lay out and scroll the same on a bare machine and on a
// desktop with many more fonts; the system's own where DejaVu is missing.
#pragma once

#include <QFont>

namespace loupe::views {

// DejaVu Sans Mono, 10 pt (else the system's fixed-width font, 10 pt).
QFont codeFont();

// DejaVu Sans at `pixelSize` (else the application's font at that size).
QFont labelFont(int pixelSize, bool bold = false);

}  // namespace loupe::views
