"""Workbooks written by hand, byte for byte, for the tests of what a file declares against what
it holds (issue 31, item 2): an .xlsx with any <dimension> and cell references, an .ods with any
repeat counts, the .xls of tests/data with one cell moved far away."""

from __future__ import annotations

import io
import struct
import zipfile
from pathlib import Path

XLS = (Path(__file__).parent / "data" / "two_sheets.xls").read_bytes()   # sheets 'notes' and 'days'
_XLSX_PARTS = {
    "[Content_Types].xml": '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-'
    'types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    '<Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType='
    '"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/'
    'worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet'
    '+xml"/></Types>',
    "_rels/.rels": '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/'
    'relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
    'relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
    "xl/workbook.xml": '<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/'
    'main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet '
    'name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>',
    "xl/_rels/workbook.xml.rels": '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/'
    'package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/'
    'officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
}


def zipped(parts: dict[str, str]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in parts.items():
            archive.writestr(zipfile.ZipInfo(name) if name == "mimetype" else name, text)
    return buffer.getvalue()


def xlsx_sheet(rows: dict[int, dict[str, object]], dimension: str | None = None) -> bytes:
    """An .xlsx whose one sheet is written by hand: {row number: {cell reference: value}}."""
    def cell(ref: str, value: object) -> str:
        if isinstance(value, str):
            return f'<c r="{ref}" t="inlineStr"><is><t>{value}</t></is></c>'
        return f'<c r="{ref}"><v>{value}</v></c>'

    body = "".join(f'<row r="{r}">' + "".join(cell(ref, v) for ref, v in cells.items()) + "</row>"
                   for r, cells in rows.items())
    declared = f'<dimension ref="{dimension}"/>' if dimension else ""
    sheet = ('<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
             f"{declared}<sheetData>{body}</sheetData></worksheet>")
    return zipped({**_XLSX_PARTS, "xl/worksheets/sheet1.xml": sheet})


def ods_sheet(rows: str) -> bytes:
    """An .ods whose one sheet holds the table:table-row elements ``rows``."""
    content = ('<?xml version="1.0" encoding="UTF-8"?><office:document-content xmlns:office="urn:oasis:names:tc:'
               'opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
               'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2"><office:body>'
               f'<office:spreadsheet><table:table table:name="Sheet1">{rows}</table:table></office:spreadsheet>'
               "</office:body></office:document-content>")
    manifest = ('<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:'
                'opendocument:xmlns:manifest:1.0"><manifest:file-entry manifest:full-path="/" manifest:media-type='
                '"application/vnd.oasis.opendocument.spreadsheet"/><manifest:file-entry manifest:full-path='
                '"content.xml" manifest:media-type="text/xml"/></manifest:manifest>')
    return zipped({"mimetype": "application/vnd.oasis.opendocument.spreadsheet",
                   "META-INF/manifest.xml": manifest, "content.xml": content})


def ods_row(cells: str, repeat: int = 1) -> str:
    return f'<table:table-row table:number-rows-repeated="{repeat}">{cells}</table:table-row>'


def ods_cell(value: object = None, repeat: int = 1, inner: str | None = None) -> str:
    repeated = f' table:number-columns-repeated="{repeat}"'
    if value is None:
        return f"<table:table-cell{repeated}/>"
    if isinstance(value, str):
        text = inner if inner is not None else f"<text:p>{value}</text:p>"
        return f'<table:table-cell office:value-type="string"{repeated}>{text}</table:table-cell>'
    return (f'<table:table-cell office:value-type="float" office:value="{value}"{repeated}><text:p>{value}</text:p>'
            "</table:table-cell>")


def xls_with_far_cell(row: int, column: int) -> bytes:
    """two_sheets.xls with the last text cell of its sheet 'days' moved to (row, column), 0-based
    (its LABELSST record, at byte 2550, starts with the cell's row and column)."""
    data = bytearray(XLS)
    assert data[2550:2554] == b"\xfd\x00\x0a\x00"
    data[2554:2558] = struct.pack("<HH", row, column)
    return bytes(data)
