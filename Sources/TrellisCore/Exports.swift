// JSONValue and LockedState live in TrellisShared, the small module plugins link instead of
// all of TrellisCore; everything that imports TrellisCore sees them as before.
@_exported import TrellisShared
