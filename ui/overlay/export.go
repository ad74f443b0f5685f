package overlay

// ExportSource is what an export writes, as the root made it when the form
// opened: the overlay says how many rows there are and how many of them
// are in pages read again; the root writes them (StartExport).
type ExportSource interface {
	Rows() int
	Released() int
}
