// Command xpmigrate moves Crossplane users off legacy Compositions and proves
// the move changed nothing.
package main

import "os"

func main() {
	os.Exit(run(os.Args[1:], defaultStreams()))
}
