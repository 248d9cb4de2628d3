"""First-name pools by culture, and a picker that keeps every name in a conversation unique."""

from __future__ import annotations

import random

# culture -> (female names, male names)
CULTURES: dict[str, tuple[list[str], list[str]]] = {
    "Yoruba": (["Funmilayo", "Temitope", "Yewande", "Bisola", "Adunni", "Folake"],
               ["Tunde", "Olumide", "Babajide", "Segun", "Kayode", "Dapo"]),
    "Igbo": (["Adaeze", "Chiamaka", "Ngozi", "Ifeoma", "Nneka", "Uchenna"],
             ["Chidi", "Emeka", "Ikenna", "Obinna", "Nnamdi", "Chukwudi"]),
    "Ghanaian": (["Abena", "Akosua", "Efua", "Ama", "Esi", "Adwoa"],
                 ["Kofi", "Kwame", "Yaw", "Kojo", "Kwabena", "Kwesi"]),
    "Indian": (["Priya", "Ananya", "Kavya", "Meera", "Lakshmi", "Ishita"],
               ["Arjun", "Rohan", "Vikram", "Siddharth", "Karthik", "Nikhil"]),
    "Chinese": (["Xiaoling", "Yun", "Jing", "Lian", "Huiying", "Meiling"],
                ["Wei", "Jun", "Hao", "Zhiyuan", "Liang", "Bo"]),
    "Japanese": (["Yuki", "Haruka", "Aiko", "Emi", "Sakura", "Natsuki"],
                 ["Kenji", "Takeshi", "Haruto", "Ren", "Daichi", "Sho"]),
    "Korean": (["Jiwoo", "Seoyeon", "Minji", "Hana", "Eunji", "Sora"],
               ["Minho", "Jisung", "Dongwoo", "Hyun", "Taeyang", "Joon"]),
    "Vietnamese": (["Linh", "Thao", "Lan", "Huong", "Ngoc", "Trang"],
                   ["Minh", "Duc", "Quang", "Tuan", "Bao", "Khoa"]),
    "Filipino": (["Maricel", "Kristine", "Liza", "Rowena", "Jasmin", "Analyn"],
                 ["Paolo", "Jomar", "Rodel", "Arnel", "Jericho", "Nonoy"]),
    "Mexican": (["Ximena", "Valeria", "Itzel", "Guadalupe", "Citlali", "Renata"],
                ["Alejandro", "Emiliano", "Joaquin", "Diego", "Santiago", "Ulises"]),
    "Brazilian": (["Thais", "Luana", "Beatriz", "Fernanda", "Rayssa", "Bruna"],
                  ["Thiago", "Caio", "Gustavo", "Rafael", "Vinicius", "Leandro"]),
    "Italian": (["Giulia", "Chiara", "Francesca", "Martina", "Elisa", "Serena"],
                ["Lorenzo", "Matteo", "Davide", "Marco", "Alessio", "Riccardo"]),
    "Polish": (["Agnieszka", "Zofia", "Kasia", "Magda", "Ewa", "Dorota"],
               ["Piotr", "Tomasz", "Krzysztof", "Bartek", "Marek", "Wojtek"]),
    "Irish": (["Siobhan", "Aoife", "Niamh", "Orla", "Saoirse", "Grainne"],
              ["Cian", "Declan", "Eoin", "Padraig", "Ronan", "Fionn"]),
    "Swedish": (["Astrid", "Linnea", "Maja", "Ingrid", "Sigrid", "Elsa"],
                ["Erik", "Nils", "Anders", "Oskar", "Gustav", "Lars"]),
    "Turkish": (["Elif", "Zeynep", "Ayse", "Defne", "Ece", "Selin"],
                ["Emre", "Burak", "Mehmet", "Kerem", "Murat", "Baris"]),
    "Persian": (["Shirin", "Leila", "Nasrin", "Parisa", "Roya", "Mina"],
                ["Dariush", "Kaveh", "Arash", "Reza", "Babak", "Farhad"]),
    "Lebanese": (["Yasmin", "Nour", "Rania", "Salma", "Maya", "Lina"],
                 ["Karim", "Omar", "Tarek", "Youssef", "Ziad", "Rami"]),
    "Ethiopian": (["Selam", "Hiwot", "Meron", "Tigist", "Bethlehem", "Rahel"],
                  ["Dawit", "Abebe", "Yonas", "Bereket", "Henok", "Tesfaye"]),
    "Greek": (["Eleni", "Katerina", "Despina", "Sofia", "Ioanna", "Vasiliki"],
              ["Nikos", "Giorgos", "Yannis", "Stavros", "Kostas", "Dimitris"]),
    "Ukrainian": (["Oksana", "Olena", "Iryna", "Kateryna", "Halyna", "Solomiya"],
                  ["Taras", "Andriy", "Bohdan", "Dmytro", "Ostap", "Yaroslav"]),
    "American": (["Hannah", "Megan", "Chloe", "Rebecca", "Brooke", "Kayla"],
                 ["Ethan", "Jacob", "Tyler", "Owen", "Caleb", "Wyatt"]),
    "Maori": (["Aroha", "Mere", "Anahera", "Kiri", "Moana", "Ngaio"],
              ["Tane", "Wiremu", "Manaia", "Rawiri", "Nikau", "Hemi"]),
    "Samoan": (["Sina", "Malia", "Losa", "Fetu", "Lagi", "Tasi"],
               ["Sione", "Tavita", "Filipo", "Ioane", "Lemi", "Pita"]),
}

CULTURE_NAMES = sorted(CULTURES)

PET_NAMES = ["Biscuit", "Pip", "Juno", "Ziggy", "Luna", "Rolo", "Bramble", "Noodle", "Waffles", "Socks",
             "Comet", "Sprout", "Pickle", "Kiwi", "Marmite", "Dumpling", "Bean", "Clementine", "Rascal",
             "Buttons", "Pixel", "Maple", "Scout", "Bingo", "Tinker", "Domino", "Gizmo", "Hazel", "Otis"]


class NamePicker:
    """Draws first names from the culture pools; a name is never handed out twice."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.used: set[str] = set()

    def take(self, culture: str, gender: str) -> str:
        female, male = CULTURES[culture]
        pool = [n for n in (female if gender == "f" else male) if n not in self.used]
        if not pool:  # the culture is exhausted: borrow from a neighbouring one
            return self.take(self.rng.choice(CULTURE_NAMES), gender)
        name = self.rng.choice(pool)
        self.used.add(name)
        return name

    def take_any(self, gender: str) -> str:
        return self.take(self.rng.choice(CULTURE_NAMES), gender)

    def pet(self) -> str:
        pool = [n for n in PET_NAMES if n not in self.used]
        name = self.rng.choice(pool)
        self.used.add(name)
        return name
