package yamledit_test

import (
	"fmt"

	"github.com/xpmigrate/xpmigrate/convert/yamledit"
)

// Changing one scalar rewrites only that scalar: the comments, the blank
// line and the quoting around it stay.
func ExampleDoc_Encode() {
	d, err := yamledit.Parse([]byte(`# Settings
spec:
  mode: Resources   # switch later

  name: 'quoted'
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	yamledit.Get(yamledit.Get(d.Top(), "spec"), "mode").Value = "Pipeline"
	out, err := d.Encode()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(string(out))
	// Output:
	// # Settings
	// spec:
	//   mode: Pipeline   # switch later
	//
	//   name: 'quoted'
}
