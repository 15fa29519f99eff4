package live

import (
	"fmt"

	"github.com/xpmigrate/xpmigrate/convert/migrate"
)

// MigratedPath is the Legacy path of the Report Migrated writes for a
// Composition of a migrate run: "<file>#<document, from 1>".
func MigratedPath(c migrate.CompositionResult) string {
	return fmt.Sprintf("%s#%d", c.File, c.Document+1)
}
