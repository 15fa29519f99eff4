package convert

import (
	yaml "go.yaml.in/yaml/v3"

	"github.com/xpmigrate/xpmigrate/internal/v2map"
)

// v2Template edits the template res, named name, for a v2-native XR and
// returns the edits it made, as ops for the v2-mapping annotation.
//
// Minimal placeholder with the agreed signature: the "mr" helper owns this
// file and the template transformations (issue 17); it edits nothing yet.
func (c *composition) v2Template(_ *yaml.Node, _ string) []v2map.Op { return nil }
