"""Modal screens of the workbench that are not the trust prompt: the model picker, history search."""
