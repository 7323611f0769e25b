"""Northvale University's course catalogue and the word lists the seed generator draws from."""

from __future__ import annotations

# (code, title, credits, prerequisites); 500-level courses are graduate courses.
COURSES = (
    ("BIO101", "Principles of Biology", 4, ()), ("BIO205", "Cell Biology", 4, ("BIO101",)),
    ("BIO230", "Genetics", 3, ("BIO101",)), ("BIO320", "Molecular Biology", 3, ("BIO205", "CHEM210")),
    ("BIO345", "Ecology of Freshwater Systems", 3, ("BIO230",)),
    ("BIO510", "Advanced Genomics", 3, ("BIO230",)),
    ("CHEM110", "General Chemistry I", 4, ()), ("CHEM111", "General Chemistry II", 4, ("CHEM110",)),
    ("CHEM210", "Organic Chemistry I", 4, ("CHEM111",)), ("CHEM211", "Organic Chemistry II", 4, ("CHEM210",)),
    ("CHEM330", "Physical Chemistry", 3, ("CHEM111", "MATH152")),
    ("CS110", "Introduction to Programming", 4, ()), ("CS150", "Discrete Structures", 3, ("MATH151",)),
    ("CS201", "Data Structures", 4, ("CS110",)), ("CS240", "Computer Organization", 3, ("CS201",)),
    ("CS310", "Algorithms", 3, ("CS201", "CS150")), ("CS330", "Operating Systems", 3, ("CS240",)),
    ("CS355", "Databases", 3, ("CS201",)), ("CS420", "Machine Learning", 3, ("CS310", "MATH221")),
    ("CS530", "Distributed Systems", 3, ("CS330",)),
    ("ECON101", "Principles of Microeconomics", 3, ()), ("ECON102", "Principles of Macroeconomics", 3, ()),
    ("ECON210", "Intermediate Microeconomics", 3, ("ECON101", "MATH151")),
    ("ECON250", "Econometrics", 3, ("ECON101", "STAT200")), ("ECON340", "Labor Economics", 3, ("ECON210",)),
    ("ECON520", "Advanced Macroeconomic Theory", 3, ("ECON102", "ECON210")),
    ("ENGL101", "College Writing", 3, ()), ("ENGL215", "The American Novel", 3, ("ENGL101",)),
    ("ENGL240", "Creative Writing Workshop", 3, ("ENGL101",)),
    ("ENGL330", "Shakespeare and His Rivals", 3, ("ENGL215",)),
    ("HIST110", "World History to 1500", 3, ()), ("HIST111", "World History since 1500", 3, ()),
    ("HIST260", "History of Science", 3, ("HIST111",)), ("HIST345", "The Atlantic World", 3, ("HIST111",)),
    ("MATH151", "Calculus I", 4, ()), ("MATH152", "Calculus II", 4, ("MATH151",)),
    ("MATH221", "Linear Algebra", 3, ("MATH152",)), ("MATH253", "Multivariable Calculus", 4, ("MATH152",)),
    ("MATH340", "Real Analysis", 3, ("MATH253", "MATH221")),
    ("MATH510", "Measure Theory", 3, ("MATH340",)),
    ("MUS100", "Music Fundamentals", 2, ()), ("MUS120", "Chamber Choir", 1, ()),
    ("PHYS131", "Physics I: Mechanics", 4, ("MATH151",)),
    ("PHYS132", "Physics II: Electricity", 4, ("PHYS131",)),
    ("PHYS250", "Modern Physics", 3, ("PHYS132", "MATH152")),
    ("PSYC101", "Introduction to Psychology", 3, ()),
    ("PSYC210", "Developmental Psychology", 3, ("PSYC101",)),
    ("PSYC230", "Research Methods", 3, ("PSYC101", "STAT200")),
    ("PSYC320", "Cognitive Neuroscience", 3, ("PSYC230",)),
    ("PSYC515", "Graduate Seminar in Cognition", 3, ("PSYC320",)),
    ("STAT200", "Introductory Statistics", 3, ()), ("STAT310", "Probability", 3, ("MATH152",)),
    ("STAT520", "Statistical Learning", 3, ("STAT310", "MATH221")),
)  # fmt: skip

DEPARTMENTS = {
    "BIO": "Biology", "CHEM": "Chemistry", "CS": "Computer Science", "ECON": "Economics",
    "ENGL": "English", "HIST": "History", "MATH": "Mathematics", "MUS": "Music", "PHYS": "Physics",
    "PSYC": "Psychology", "STAT": "Statistics",
}  # fmt: skip
PROGRAMS = {
    "undergraduate": ("BS Biology", "BS Chemistry", "BS Computer Science", "BA Economics", "BA English",
                      "BA History", "BS Mathematics", "BS Physics", "BA Psychology", "BS Statistics"),
    "graduate": ("MS Computer Science", "MA Economics", "MS Statistics", "MS Biology", "MA Psychology"),
}  # fmt: skip

FIRST_NAMES = (
    "Amara", "Bennett", "Calla", "Dmitri", "Esme", "Farid", "Greer", "Hollis", "Ines", "Jonah", "Kaia",
    "Leopold", "Maren", "Nasir", "Odile", "Perrin", "Quincy", "Rosalind", "Soren", "Talia", "Umberto",
    "Vesna", "Wendell", "Xiomara", "Yusuf", "Zelda", "Anouk", "Bram", "Cosima", "Desmond", "Eero",
    "Fenna", "Gustavo", "Hester", "Ilya", "Junie", "Kenji", "Lisette", "Mateus", "Nell", "Osric",
    "Priya", "Ramona", "Silas", "Tamsin", "Ulani", "Viggo", "Wilhelmina", "Yara", "Zubin",
)  # fmt: skip
LAST_NAMES = (
    "Abernethy", "Balogun", "Castellano", "Drummond", "Eklund", "Fairbairn", "Galloway", "Hakimi",
    "Ishikawa", "Jankowski", "Kettering", "Lindgren", "Mbatha", "Nakashima", "Oduya", "Penhaligon",
    "Quaresma", "Rasmussen", "Saltonstall", "Thorvaldsen", "Underhill", "Varga", "Whitlock", "Yilmaz",
    "Zamora", "Achterberg", "Bellweather", "Cruickshank", "Delgado", "Esposito", "Fitzgerald", "Grimaldi",
    "Holmqvist", "Iwu", "Jaramillo", "Kowalski", "Lachapelle", "Moreira", "Nygaard", "Okonjo",
)  # fmt: skip
INSTRUCTORS = (
    "Prof. Adaeze Nwosu", "Prof. Bertrand Lalonde", "Dr. Corinne Vasquez", "Prof. Dariusz Malek",
    "Dr. Elspeth Fraser", "Prof. Fumiko Arai", "Dr. Gareth Pryce", "Prof. Hana Dvorak",
    "Dr. Ignatius Mwale", "Prof. Juliana Ferraz", "Dr. Konrad Albers", "Prof. Leilani Kahale",
    "Dr. Mehmet Aydin", "Prof. Noor Haddad", "Dr. Orla Brennan", "Prof. Pavel Sokolov",
    "Dr. Renata Oliveira", "Prof. Stellan Berg", "Dr. Tomasz Wisniewski", "Prof. Ursula Klein",
)  # fmt: skip
ADVISORS = (
    "Dr. Miriam Okafor", "Dr. Julian Strand", "Ms. Teodora Ilic", "Mr. Caspar Lindholm",
    "Dr. Aaliyah Brooks", "Ms. Hiroko Tan",
)  # fmt: skip
MEETINGS = (
    "Mon/Wed 08:30-09:45", "Mon/Wed 10:00-11:15", "Mon/Wed 13:00-14:15", "Tue/Thu 09:00-10:15",
    "Tue/Thu 11:30-12:45", "Tue/Thu 14:00-15:15", "Mon/Wed/Fri 09:00-09:50", "Mon/Wed/Fri 11:00-11:50",
    "Tue/Thu 16:00-17:15", "Wed 18:00-20:45", "Thu 18:30-21:15", "Fri 10:00-12:45",
)  # fmt: skip
BUILDINGS = (
    "Harlow Hall",
    "Sefton Science Center",
    "Marrin Library Annex",
    "Ostrander Hall",
    "Quill Building",
)
CARD_BRANDS = ("Visa", "Mastercard", "Amex", "Discover")
BANKS = ("First Lakeshore Bank", "Northvale Credit Union", "Granite State Savings", "Harborview Bank")
TRANSCRIPT_RECIPIENTS = (
    "admissions@graduate.mercer-hill.example", "records@law.ashcombe.example", "hr@brightwell-labs.example",
    "Office of Admissions, Calder State University, 14 Quarry Road, Calder, OH 43015",
    "Talent Team, Ferrow & Pike LLP, 300 Dock Street, Boston, MA 02110",
    "scholarships@weybridge-foundation.example",
)  # fmt: skip
