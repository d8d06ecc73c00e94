"""What the project knows about each file format, reading and writing: one package per
format (`trf`, `crosstable`, `games_csv`, `rating_list`), and beside them the helpers every
format uses (`text`: bytes to text; `dates`: every date form; `names`: name keys;
`timecontrol`: time controls to a rating list; `xlsx_safety`: the XLSX pre-flight;
`model`: `EventData`, what a reader returns). Nothing here knows of the stages above."""
