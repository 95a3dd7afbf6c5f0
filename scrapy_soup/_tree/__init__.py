"""The soup tree: bs4's document API as a view over an lxml tree."""
