;; Rust: the names a file uses outside its `use` declarations. The extractor keeps the outermost
;; path of a nested one (`a::b::c` and not its `a::b`) and drops anything inside a `use`.
[(identifier) (type_identifier)] @name
[(scoped_identifier) (scoped_type_identifier)] @path
(call_expression function: (field_expression field: (field_identifier) @method))
(call_expression function: (generic_function function: (field_expression field: (field_identifier) @method)))
