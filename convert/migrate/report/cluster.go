package report

import "github.com/xpmigrate/xpmigrate/render/verify/live"

// A Cluster is the cluster check of `migrate --cluster`, rendered in each
// format by render/verify/live (RenderSection): the report places it.
type Cluster = live.Section
