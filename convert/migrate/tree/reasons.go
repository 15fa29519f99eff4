package tree

// Why the walk or the scan skipped a file (migrate.FileResult.Reason; the
// migrator's other reasons are its own).
const (
	ReasonTemplate       = "template"        // Helm/Go-template syntax that is not YAML
	ReasonYtt            = "ytt"             // ytt annotations
	ReasonUnparseable    = "unparseable"     // neither YAML nor JSON
	ReasonVanished       = "vanished"        // deleted after the walk
	ReasonSymlinkLoop    = "symlink-loop"    // a symlinked directory that contains itself
	ReasonSymlinkOutside = "symlink-outside" // a symlink whose target is outside the tree
	ReasonBrokenSymlink  = "broken-symlink"  // a symlink to nothing
	ReasonUnreadable     = "unreadable"      // cannot be read
	ReasonNotRegular     = "not-regular"     // a FIFO, socket or device: never opened
	ReasonTooLarge       = "too-large"       // larger than the size limit: never parsed
	ReasonAliasBomb      = "alias-bomb"      // aliases expand beyond the readers' budget
)
