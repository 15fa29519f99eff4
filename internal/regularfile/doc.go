// Package regularfile opens only regular files. A FIFO, a socket or a
// device found where a file was expected is refused with a
// *NotRegularError instead of being opened: opening a FIFO for reading
// blocks until a writer comes, reading a character device may never end,
// and neither can be interrupted. The check runs before the open and again
// on the open file (which is opened non-blocking, so that a FIFO swapped
// in between the two does not block either).
//
//	data, err := regularfile.ReadFile("composition.yaml")
//	var nr *regularfile.NotRegularError
//	if errors.As(err, &nr) {
//		fmt.Printf("skipped %s: %s\n", nr.Path, nr.Kind())
//	}
package regularfile
