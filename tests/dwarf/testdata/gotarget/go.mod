module gotarget

go 1.21
