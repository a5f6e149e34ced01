"""Where the data and the model come from: one module per source behind one protocol
(``ui.sources.base.Source``), each registered with one line below, in the order the Data page
offers them. A source that lives only in the tests registers itself the same way
(``tests/new_source.py``)."""

from ui.sources.base import Opened, Source, register_source, source_classes, unregister_source
from ui.sources.database import Database
from ui.sources.example import DEFAULT_EXAMPLE, Example
from ui.sources.local_path import LocalPath
from ui.sources.model_file import ModelFile
from ui.sources.upload import READERS, Corpus, Table, Upload

register_source(Example)
register_source(Table)
register_source(Corpus)
register_source(LocalPath)
register_source(Database)
register_source(ModelFile)

__all__ = ["DEFAULT_EXAMPLE", "READERS", "Corpus", "Database", "Example", "LocalPath", "ModelFile", "Opened", "Source", "Table",
           "Upload", "register_source", "source_classes", "unregister_source"]
