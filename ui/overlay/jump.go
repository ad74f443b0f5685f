package overlay

// JumpTarget is one place an item can be opened in: an index, or the base
// table (from an index entry), or a partition its keys name.
type JumpTarget struct {
	Index  string // "" for the base table
	PK, SK string // the item's key values there, as text ("" SK without a sort key)
	Label  string
	Why    string // why it cannot be opened there; "" when it can
}
