package tree

import (
	"path"
	"strings"
)

// twinSuffix marks a twin file: NAME.yaml → NAME<twinSuffix>.yaml.
const twinSuffix = ".v2"

// TwinPath returns the twin file of an example file, "" for a file that
// gets none (JSON, or a twin itself).
func TwinPath(rel string) string {
	ext := path.Ext(rel)
	if ext != ".yaml" && ext != ".yml" {
		return ""
	}
	if isTwinFile(rel) {
		return ""
	}
	return strings.TrimSuffix(rel, ext) + twinSuffix + ext
}

// isTwinFile reports whether rel is named as a twin file (NAME.v2.yaml):
// its documents are v2 XRs, not examples of the legacy types.
func isTwinFile(rel string) bool {
	ext := path.Ext(rel)
	return (ext == ".yaml" || ext == ".yml") && strings.HasSuffix(strings.TrimSuffix(rel, ext), twinSuffix)
}
